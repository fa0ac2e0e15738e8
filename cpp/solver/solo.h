// Solo puzzle solver ("Eighty-Eight"): place every piece of every colour in play, the single
// triangle last, as a legal game. Randomised depth-first search over piece placements with a
// wasted-cell bound and a check that every colour's pieces still fit where it can go (reach.h),
// restarted with fresh seeds; worker threads race and stop at the first success.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/position.h"
#include "core/thread_group.h"

namespace trigon::solver {

struct SoloOptions {
    // Start cell per colour (a cell index), or -1 to let the search choose among the free ones.
    std::array<int, kNumColours> start_cells{-1, -1, -1, -1};
    std::uint64_t seed = 0;
    double time_limit = 60.0;  // seconds; <= 0 means no limit (stop() ends it)
    int threads = 1;
    int count = 1;             // distinct complete layouts wanted
    bool triangle_last = true;  // the single triangle only as a colour's last piece (+20 bonus)
    long long restart_nodes = 0;  // nodes per restart before reseeding; 0 = automatic (300)
    // Colours that place pieces (0 = all in play). With a subset the others are assumed to stop:
    // solutions are then the placement sequences themselves (legal in that order), not games.
    std::uint8_t colours = 0;
    // From a position (some cells occupied): the first worker repairs the best partial layout
    // between restarts (repair.h: its moves around an empty cell taken out, the exhaustive search
    // placing every piece left from there).
    bool repairs = true;
    // Where a caller watches progress (ExactOptions::progress): nodes added as they are searched.
    std::atomic<long long>* progress = nullptr;
};

struct SoloSolution {
    std::vector<std::pair<int, int>> moves;  // (colour, placement id) in the game's turn order
    bool complete = false;                   // every colour in play placed all its pieces
    std::array<int, kNumColours> scores{};   // rulebook scores of the replayed game
    int unplaced_triangles = 0;              // over the colours in play
};

struct SoloStats {
    long long nodes = 0;
    long long restarts = 0;
    double seconds = 0;
    int best_placed = 0;  // most triangles placed in one search branch (all colours)
    int target = 0;       // triangles to place in all
    int solutions = 0;
    bool all_found = false;  // looking for many: every complete layout was found (solutions is their number)
};

class SoloSearch {
public:
    SoloSearch(const Position& start, const SoloOptions& options);
    ~SoloSearch();
    SoloSearch(const SoloSearch&) = delete;
    SoloSearch& operator=(const SoloSearch&) = delete;

    void start();
    bool done() { return workers_.done(); }
    void stop() { stop_.store(true); }
    // Waits for the workers; rethrows a worker's exception (once).
    void join();
    // Waits until every worker has finished or `seconds` have passed; true when finished.
    bool wait_for(double seconds);
    SoloStats stats() const;

    // Distinct complete solutions found (in order of discovery; the first is the answer), from
    // the `first`-th on (while the search runs too: a caller takes the new ones as they come).
    std::vector<SoloSolution> solutions(std::size_t first = 0) const;
    // A consumer that takes the solutions as they come says how many it has taken: the workers
    // then wait while more than a few are waiting for it (never called: they do not wait).
    void taken(std::size_t n);
    // The answer: the first complete solution, else the best partial layout replayed (with any
    // forced extra moves) into a legal game, marked incomplete.
    SoloSolution best() const;
    // The placements of the branch that placed the most triangles, colour by colour (each
    // colour's list legal in that order; the colours do not constrain each other's order).
    std::vector<std::pair<int, int>> best_partial_moves() const;

    struct Shared;  // state shared by the workers (defined in solo.cpp)

private:
    std::unique_ptr<Shared> shared_;
    std::atomic<bool> stop_{false};
    // (last: destroyed first, it stops and joins the workers, which use shared_ and stop_)
    ThreadGroup workers_{[this] { stop(); }};
};

// Blocking convenience for C++ callers and tests.
SoloSolution solve_solo(const Position& start, const SoloOptions& options, SoloStats* stats = nullptr);

// Replays per-colour move lists (each in an order legal for its colour) in turn order from
// `start`; where a colour's list runs out or its next move is no longer legal while it still
// has a legal move, plays the largest legal piece (triangle last when it can). Returns the game.
SoloSolution replay_layout(const Position& start, const std::array<std::vector<int>, kNumColours>& per_colour);

// Canonical key of a final layout up to the 12 board symmetries and a renaming of colours.
std::string layout_key(const Position& final_position);

}  // namespace trigon::solver
