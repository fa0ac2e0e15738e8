// Worker threads started together and always joined. A std::thread still joinable when it is
// destroyed ends the process (std::terminate): a pool whose second thread fails to start
// (std::system_error), or whose caller's own part throws, must stop and join the others first.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/thread_failure.h"

namespace trigon {

class ThreadGroup {
public:
    // `stop` tells the group's bodies to end (they poll a flag it sets); it is called on any
    // failure: a body's exception, a thread that fails to start, the owner leaving by an exception.
    explicit ThreadGroup(std::function<void()> stop) : stop_(std::move(stop)) {}
    ThreadGroup(const ThreadGroup&) = delete;
    ThreadGroup& operator=(const ThreadGroup&) = delete;

    // Reached with threads still running only when an exception is on its way: stop, then join.
    ~ThreadGroup() {
        if (joinable()) {
            stop_();
            join_threads();
        }
    }

    // Runs body() on a new thread, guarded: its exception is kept for join(). If the thread
    // cannot be started, the group is stopped and joined and the error goes on.
    template <class Body>
    void start(Body body) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++running_;
        }
        try {
            threads_.emplace_back([this, body = std::move(body)]() mutable {
                failure_.guard(body, stop_);
                std::lock_guard<std::mutex> lock(mutex_);
                if (--running_ == 0) finished_.notify_all();
            });
        } catch (...) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                --running_;
            }
            stop_();
            join_threads();
            throw;
        }
    }

    // Runs body() on the calling thread, guarded as the group's threads are.
    template <class Body>
    void run_here(Body&& body) {
        failure_.guard(std::forward<Body>(body), stop_);
    }

    // Waits until every thread started has finished, calling tick() every `period` meanwhile
    // (to poll for Ctrl-C, a time limit, progress). An exception from tick() goes on (the
    // destructor then stops and joins the group).
    template <class Tick>
    void wait(std::chrono::milliseconds period, Tick&& tick) {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!finished_.wait_for(lock, period, [this] { return running_ == 0; })) {
            lock.unlock();
            tick();
            lock.lock();
        }
    }

    // Waits until every thread started has finished or `seconds` have passed; true when finished.
    bool wait_for(double seconds) {
        std::unique_lock<std::mutex> lock(mutex_);
        return finished_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return running_ == 0; });
    }

    // True when every thread started has finished (or none was).
    bool done() {
        std::lock_guard<std::mutex> lock(mutex_);
        return running_ == 0;
    }

    // Joins every thread, then rethrows the group's first exception (once).
    void join() {
        join_threads();
        failure_.rethrow();
    }

private:
    bool joinable() const {
        for (const auto& t : threads_)
            if (t.joinable()) return true;
        return false;
    }

    void join_threads() {
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }

    std::function<void()> stop_;
    ThreadFailure failure_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable finished_;
    int running_ = 0;
};

}  // namespace trigon
