// Emscripten library functions SDL2 links but this app never uses, replaced by stubs so the page does not
// carry their JavaScript. Linked with --js-library (cmake/emscripten.cmake, attn_wasm_page).
// - Full-screen modes and pointer lock: the app requests neither, and SDL only registers for their change
//   events. Each stub answers as a browser without the feature would: EMSCRIPTEN_RESULT_NOT_SUPPORTED (-1)
//   for requests, success (0) for registering a callback that will never be called.
// - The window title: the page keeps its own <title> (SDL would replace it with the window's name).
// - Page resize, visibility and unload events for SDL: the app follows the window's size itself each frame
//   (main_web.cpp), web/shell.js stops drawing in a hidden tab, and nothing is saved on unload.
// - Tearing the GL context down: the page never destroys its window or context (it runs until closed).
// - SDL's touch listeners on the canvas: src/platform/touch_web.cpp takes every touch on the canvas in the
//   capture phase and stops it there, so SDL's would never run.
// - SDL's wheel listener is the library's own, added with {passive: false} (it calls preventDefault when the
//   app takes the wheel), so the browser does not report a scroll-blocking listener of unknown kind.
mergeInto(LibraryManager.library, {
  emscripten_request_fullscreen_strategy: function () { return -1; },
  emscripten_exit_fullscreen: function () { return -1; },
  emscripten_request_pointerlock: function () { return -1; },
  emscripten_exit_pointerlock: function () { return -1; },
  emscripten_set_fullscreenchange_callback_on_thread: function () { return 0; },
  emscripten_set_pointerlockchange_callback_on_thread: function () { return 0; },
  emscripten_set_window_title: function () {},
  emscripten_set_resize_callback_on_thread: function () { return 0; },
  emscripten_set_visibilitychange_callback_on_thread: function () { return 0; },
  emscripten_set_beforeunload_callback_on_thread: function () { return 0; },
  eglDestroyContext: function () { return 1; },
  eglDestroySurface: function () { return 1; },
  eglTerminate: function () { return 1; },
  emscripten_set_touchstart_callback_on_thread: function () { return 0; },
  emscripten_set_touchend_callback_on_thread: function () { return 0; },
  emscripten_set_touchmove_callback_on_thread: function () { return 0; },
  emscripten_set_touchcancel_callback_on_thread: function () { return 0; },
  emscripten_set_wheel_callback_on_thread__deps: ['$registerWheelEventCallback', '$findEventTarget'],
  emscripten_set_wheel_callback_on_thread: function (target, userData, useCapture, callbackfunc, targetThread) {
    registerWheelEventCallback(findEventTarget(target), userData, { capture: !!useCapture, passive: false },
                               callbackfunc, 9, 'wheel', targetThread);  // 9: EMSCRIPTEN_EVENT_WHEEL
    return 0;
  },
});
