// Desktop entry point: SDL2 + OpenGL 3.3 core + Dear ImGui, the same app as the browser.
//
//   attention_demo [--url "?scene=clock&pos=44"] [--frames N] [--screenshot out.png] [--state out.json]
//                  [--width W] [--height H] [--model model.json] [--sweep queries.txt]
// --frames N quits after N frames (and ignores the mouse pointer); --screenshot saves the last frame as PNG;
// --state writes the app's state JSON at the end; --model loads a trained model file (the Train scene's
// "Save", or attention_cli train --out) as the trained model before the first frame. --sweep opens each
// line of a file as a URL query in turn (as the browser's Back and Forward do), draws until the scene has
// no work left (at least 3 frames, at most --frames, default 60) and writes one state JSON line per query
// to --state. Exit status 0 on
// success, 1 when the window, GL, an output file or the model file fails, 2 for bad flags.
#define GL_GLEXT_PROTOTYPES 1
#include <SDL.h>
#include <SDL_opengl.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "app/logic/lm_store.hpp"
#include "app/logic/trained_model.hpp"
#include "app/platform_io.hpp"
#include "gfx/heatmap_renderer_state.hpp"
#include "imgui_host.hpp"
#include "imgui_impl_sdl2.h"
#include "png.hpp"

namespace {

struct Options {
  std::string url;
  long long frames = 0;  // 0: run until the window is closed
  std::string screenshot;
  std::string state;
  int width = 1280, height = 800;
  std::string model;
  std::string sweep;
};

// The framebuffer as RGBA rows, top row first (GL reads bottom-up).
std::vector<std::uint8_t> read_framebuffer(int w, int h) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  std::vector<std::uint8_t> flipped(px.size());
  for (int y = 0; y < h; ++y) {
    std::copy_n(px.data() + row * static_cast<std::size_t>(h - 1 - y), row,
                flipped.data() + row * static_cast<std::size_t>(y));
  }
  for (std::size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // the window is opaque
  return flipped;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App cli{"attention_demo: positional encoding and attention, interactive (desktop)"};
  cli.add_option("--url", opt.url, "URL query to open, e.g. \"?scene=clock&pos=44\"");
  cli.add_option("--frames", opt.frames, "quit after this many frames (0: run until closed)")
      ->check(CLI::Range(0LL, 1000000000LL));
  cli.add_option("--screenshot", opt.screenshot, "write the last frame to this PNG file");
  cli.add_option("--state", opt.state, "write the app's state JSON to this file at the end");
  cli.add_option("--width", opt.width, "window width")->check(CLI::Range(200, 8192));
  cli.add_option("--height", opt.height, "window height")->check(CLI::Range(200, 8192));
  cli.add_option("--model", opt.model,
                 "a trained model file to load (Train scene, attention_cli train --out)");
  cli.add_option("--sweep", opt.sweep, "a file of URL queries, one per line: one state line each (--state)");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  std::vector<std::string> queries;
  if (!opt.sweep.empty()) {
    std::ifstream in(opt.sweep, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) queries.push_back(line);
    }
    if (!in.eof() || opt.state.empty()) {
      std::fprintf(stderr, "error: --sweep needs a readable file and --state\n");
      return 2;
    }
    if (opt.frames == 0) opt.frames = 60;
  }

  if (!opt.model.empty()) {
    const app::OpenedFile f = app::open_model_file(opt.model);
    const std::string why = f.error.empty() ? app::load_trained_model(f.text, opt.model) : f.error;
    if (!why.empty()) {
      std::fprintf(stderr, "error: --model: %s\n", why.c_str());
      return 1;
    }
  }

  // 1. window and OpenGL 3.3 core context
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    std::fprintf(stderr, "error: SDL_Init: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
  SDL_Window* window =
      SDL_CreateWindow("Attention, in order", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, opt.width,
                       opt.height, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (!window) {
    std::fprintf(stderr, "error: SDL_CreateWindow: %s\n", SDL_GetError());
    SDL_Quit();
    return 1;
  }
  SDL_GLContext gl = SDL_GL_CreateContext(window);
  if (!gl) {
    std::fprintf(stderr, "error: cannot create an OpenGL 3.3 core context: %s\n", SDL_GetError());
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 1;
  }
  SDL_GL_MakeCurrent(window, gl);
  SDL_GL_SetSwapInterval(opt.frames > 0 ? 0 : 1);  // scripted runs go as fast as they can

  // 2. Dear ImGui and the heatmap renderer (its state lives here, until stop_imgui)
  gfx::HeatmapRenderer heatmaps;
  {
    int win_w = 0, fb_w = 0, h = 0;
    SDL_GetWindowSize(window, &win_w, &h);
    SDL_GL_GetDrawableSize(window, &fb_w, &h);
    const float ratio = win_w > 0 ? static_cast<float>(fb_w) / static_cast<float>(win_w) : 1.0f;
    std::string error = platform::start_imgui(ratio, heatmaps);
    if (error.empty() && !ImGui_ImplSDL2_InitForOpenGL(window, gl))
      error = "the SDL2 back end could not start";
    if (!error.empty()) {
      std::fprintf(stderr, "error: the interface could not start: %s\n", error.c_str());
      return 1;
    }
  }

  // 3. the app and the loop
  int status = 0;
  {
    app::App the_app(opt.url);
    bool frame_error_logged = false;  // a failed frame has been written to stderr
    // Draws frames until the window closes, or `frames` have been drawn (0: no limit), or, with `until_idle`,
    // the app wants no next frame after at least 3; the screenshot is taken of the last one.
    auto run = [&](long long frames, bool until_idle) {
      bool quit = false;
      for (long long frame = 1; !quit; ++frame) {
        const auto t0 = std::chrono::steady_clock::now();
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
          ImGui_ImplSDL2_ProcessEvent(&event);
          if (event.type == SDL_QUIT) quit = true;
          if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE &&
              event.window.windowID == SDL_GetWindowID(window))
            quit = true;
        }
        if (frames > 0 && frame >= frames) quit = true;  // this is the last frame

        // Scripted runs ignore the pointer (under Xvfb it rests mid-screen), so screenshots are repeatable.
        ImGui_ImplSDL2_NewFrame();
        platform::build_frame(the_app, opt.frames > 0, frame_error_logged);
        // CPU time of the frame up to here (events, scenes, heatmap uploads, layout), as in the browser.
        const double cpu_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        int fb_w = 0, fb_h = 0;
        SDL_GL_GetDrawableSize(window, &fb_w, &fb_h);
        platform::draw_frame(fb_w, fb_h);
        the_app.finish_frame(cpu_ms);
        if (until_idle && frame >= 3 && !the_app.wants_next_frame()) quit = true;

        if (quit && !opt.screenshot.empty()) {
          std::string why;
          if (!platform::write_png_rgba(opt.screenshot, fb_w, fb_h, read_framebuffer(fb_w, fb_h), &why)) {
            std::fprintf(stderr, "error: screenshot: %s\n", why.c_str());
            status = 1;
          }
        }
        SDL_GL_SwapWindow(window);
        if (the_app.take_url_change() != app::UrlChange::None) {
          const std::string title = "Attention, in order - ?" + the_app.query();
          SDL_SetWindowTitle(window, title.c_str());
        }
      }
    };

    std::ofstream out;
    if (!opt.state.empty()) out.open(opt.state, std::ios::binary);
    if (queries.empty()) {
      run(opt.frames, false);
      out << the_app.state_json() << '\n';
    }
    for (const std::string& query : queries) {
      the_app.open_query(query);
      run(opt.frames, true);
      out << the_app.state_json() << '\n';
    }
    if (!opt.state.empty() && !out.flush()) {
      std::fprintf(stderr, "error: cannot write %s\n", opt.state.c_str());
      status = 1;
    }
  }

  // 4. shut down: GPU resources before the context goes away
  ImGui_ImplSDL2_Shutdown();
  platform::stop_imgui();
  SDL_GL_DeleteContext(gl);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return status;
}
