// Ctrl-C for long calls that hand back their best result when interrupted instead of raising.
#pragma once

#include <pybind11/pybind11.h>

namespace trigon::bindings {

// Call with the GIL held: true (and `interrupted` set) once Ctrl-C has been pressed. The
// KeyboardInterrupt is consumed, so the caller returns what it has with `interrupted` set.
inline bool consume_ctrl_c(bool& interrupted) {
    if (!interrupted && PyErr_CheckSignals() != 0) {
        PyErr_Clear();
        interrupted = true;
    }
    return interrupted;
}

}  // namespace trigon::bindings
