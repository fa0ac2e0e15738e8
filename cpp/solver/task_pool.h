// How the threads of one exhaustive search share its tree (exact_search.h): the shares split off
// (tasks) and the pool that hands them to idle workers.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/position.h"

namespace trigon::solver::exact_detail {

// Where a share of a parallel search was split off: the node, its reaches and their narrow
// parts (and per colour the area that fits there and the slack), and the move made from it.
struct SplitParent {
    Position position;
    std::array<Bitboard, kNumColours> reach, narrow;
    std::array<int, kNumColours> fit, slack;
    std::pair<int, int> move;
};

// A share of a parallel all-placed search: the layouts below a node, searched from its position
// with its excluded cells; `path` leads there from the start. Its reaches shrink from its
// parent's as they would have in the search that split it off (none at the start), so a tree
// shared out is the very tree one thread searches.
struct SplitTask {
    Position start;
    std::array<Bitboard, kNumColours> excl;
    std::vector<std::pair<int, int>> path;
    std::optional<SplitParent> parent;
};

// The tasks of a parallel all-placed search, and the workers waiting for one. A worker that
// finds none waits; a busy one hands over untried moves while any waits (hungry); the search
// is over when no task is left and no worker busy.
class TaskPool {
public:
    TaskPool(SplitTask root, const std::atomic<bool>& halt) : halt_(halt) {
        queue_.push_back(std::move(root));
    }

    bool hungry() const { return hungry_.load(std::memory_order_relaxed); }

    // The next task, or false when the search is over (or halted).
    bool take(SplitTask& out) {
        std::unique_lock<std::mutex> lock(mutex_);
        ++waiting_;
        update();
        while (queue_.empty() && busy_ > 0 && !halt_.load())  // (halt is polled: it is no member of this lock)
            ready_.wait_for(lock, std::chrono::milliseconds(10));
        --waiting_;
        if (queue_.empty() || halt_.load()) {
            update();
            ready_.notify_all();
            return false;
        }
        out = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
        update();
        return true;
    }

    // The task taken last by this worker is searched.
    void done() {
        std::lock_guard<std::mutex> lock(mutex_);
        --busy_;
        update();
        if (busy_ == 0) ready_.notify_all();
    }

    // Every task given was taken (each then searched, or its search aborted): false when a halt
    // left some untaken.
    bool all_taken() {
        std::lock_guard<std::mutex> lock(mutex_);
        return queue_.empty();
    }

    void give(std::vector<SplitTask> tasks) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& t : tasks) queue_.push_back(std::move(t));
        update();
        ready_.notify_all();
    }

private:
    void update() { hungry_.store(waiting_ > 0 && queue_.empty(), std::memory_order_relaxed); }

    const std::atomic<bool>& halt_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<SplitTask> queue_;
    int waiting_ = 0, busy_ = 0;
    std::atomic<bool> hungry_{false};
};

}  // namespace trigon::solver::exact_detail
