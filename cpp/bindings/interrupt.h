// Ctrl-C for long calls that hand back their best result when interrupted instead of raising,
// and the interpreter's exit, which ends them the same way.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <pybind11/pybind11.h>

namespace trigon::bindings {

// Set when the interpreter exits (end_long_calls, registered with atexit): a thread still in
// the core without the GIL when Python finalizes is ended by pthread_exit inside a destructor
// as it takes the GIL back, and that is std::terminate (a GUI closed while a daemon thread
// analyses). So long calls end at their next check, and none starts after.
inline std::atomic<bool>& exiting() {
    static std::atomic<bool> flag{false};
    return flag;
}

// Long calls under way (each holds a LongCall).
inline std::atomic<int>& long_calls() {
    static std::atomic<int> count{0};
    return count;
}

// Held for the whole of a call that releases the GIL for long (made and destroyed with the GIL
// held, so it and end_long_calls are ordered by the GIL).
class LongCall {
public:
    LongCall() {
        if (exiting().load()) throw std::runtime_error("the interpreter is exiting: trigon_fast starts no long call");
        long_calls().fetch_add(1);
    }
    ~LongCall() { long_calls().fetch_sub(1); }
    LongCall(const LongCall&) = delete;
    LongCall& operator=(const LongCall&) = delete;
};

// At the interpreter's exit (GIL held): stops the long calls and waits, the GIL released, until
// every one has returned (at most `seconds`).
inline void end_long_calls(double seconds) {
    exiting().store(true);
    pybind11::gil_scoped_release release;
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (long_calls().load() > 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Call with the GIL held: true (and `interrupted` set) once Ctrl-C has been pressed, or the
// interpreter is exiting. The KeyboardInterrupt is consumed, so the caller returns what it has
// with `interrupted` set.
inline bool consume_ctrl_c(bool& interrupted) {
    if (!interrupted && (exiting().load(std::memory_order_relaxed) || PyErr_CheckSignals() != 0)) {
        PyErr_Clear();
        interrupted = true;
    }
    return interrupted;
}

}  // namespace trigon::bindings
