// The first exception thrown in a group of threads, kept to be rethrown by the thread that
// joins them: one escaping a std::thread's body ends the process (std::terminate).
#pragma once

#include <exception>
#include <mutex>
#include <utility>

namespace trigon {

class ThreadFailure {
public:
    // Runs body(); if it throws, keeps the exception (the group's first) and runs on_failure
    // (which should tell the group's other threads to stop).
    template <class Body, class OnFailure>
    void guard(Body&& body, OnFailure&& on_failure) noexcept {
        try {
            std::forward<Body>(body)();
        } catch (...) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (!first_) first_ = std::current_exception();
            }
            on_failure();
        }
    }

    // After the group is joined: rethrows the kept exception, if any (once).
    void rethrow() {
        if (first_) std::rethrow_exception(std::exchange(first_, nullptr));
    }

private:
    std::mutex mutex_;
    std::exception_ptr first_;
};

}  // namespace trigon
