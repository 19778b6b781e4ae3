// The page's pretrained-model side (src/platform/checkpoint_web.cpp): the worker's model holder, which the
// worker's command export answers questions with.
#pragma once

#include "app/logic/lm_host.hpp"

namespace platform {

// The model the compute worker holds (the worker runs no App).
app::LmHost& worker_lm_host();

}  // namespace platform
