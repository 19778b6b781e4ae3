// The one list of scenes, in menu order: URL id, title and draw function. Expanded by the URL table
// (logic/settings.cpp: ids and titles) and by the scene table (scenes/scenes.cpp: draw functions).
#pragma once

// X(id, title, draw function, instruction): the draw functions are declared in app/scenes/scenes.hpp; the
// instruction is the one thing to do there, shown above the scene with Back / Next.
#define ATTN_SCENE_LIST(X)                                                                                   \
  X(start, "Start here", draw_start_scene, "Read the three lines below, then press Next to meet the clock.") \
  X(clock, "Clock", draw_clock_scene,                                                                        \
    "Drag 'position' and watch the fast hands spin while the slow ones barely move; then compare two "       \
    "positions hand by hand.")                                                                               \
  X(positions, "Position table", draw_positions_scene,                                                       \
    "Each row is one position's clock reading: hover a cell, then see how alike nearby rows are.")           \
  X(word, "Word + position", draw_word_scene,                                                                \
    "Move the word to another position: its meaning stays, the position's reading added to it changes.")     \
  X(mha, "Multi-head attention", draw_mha_scene,                                                             \
    "Type your own sentence and hover the grids: each head spreads its attention in its own way.")           \
  X(order, "Order blindness", draw_order_scene,                                                              \
    "Shuffle the words: without positions the router's label and confidence do not move at all.")            \
  X(schemes, "Position schemes", draw_schemes_scene,                                                         \
    "The same email through each position scheme: compare what each one lets attention see.")                \
  X(encoder, "Encoder block", draw_encoder_scene,                                                            \
    "Follow the tokens through attention, add & norm and the feed-forward layer: every step keeps (T, "      \
    "d_model).")                                                                                             \
  X(train, "Train a router", draw_train_scene,                                                               \
    "Press Train and watch the loss fall, then type an email and read the router's answer.")                 \
  X(induction, "Induction heads", draw_induction_scene,                                                      \
    "Press Train and watch the repeat's loss fall as an induction head forms; then switch it off.")          \
  X(lm, "A real model", draw_lm_scene,                                                                       \
    "Open a pretrained model's files, type a text and look at every head; find the heads by their role.")    \
  X(exercises, "Exercises", draw_exercises_scene,                                                            \
    "Answer each question; Hint helps and Reveal shows the worked answer with a link to its scene.")
