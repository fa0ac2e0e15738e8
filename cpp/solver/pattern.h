// Pattern puzzles: cover a set of board cells exactly with a multiset of pieces (no contact
// rules), counting or listing the solutions, optionally only one per symmetry class of the region.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"

namespace trigon::solver {

// Frontier: branch on the first uncovered cell along a sweep of the region (fast per node, and
// counting shares equal frontiers). Mrv: branch on the cell or piece with the fewest options.
enum class PatternMethod { Auto, Frontier, Mrv };

// Where a caller watches a search: nodes and solutions counted so far, added by every thread each
// 4096 nodes (relaxed: a progress figure; the result has the final ones). Solutions counted with
// the region's symmetries are counted once per orbit here, a lower bound as a stopped count is.
struct PatternProgress {
    std::atomic<long long> nodes{0};
    std::atomic<long long> count{0};
};

struct PatternOptions {
    bool all_solutions = false;   // false: stop once `first` solutions are found
    long long first = 1;          // (when not all_solutions) solutions to find before stopping
    bool unique = false;          // count/list one solution per symmetry class of the region
    long long max_stored = 1000;  // solutions kept (counting goes on)
    double time_limit = 60.0;     // seconds; <= 0: none
    PatternMethod method = PatternMethod::Auto;  // Auto: Frontier on compact regions, else Mrv
    int threads = 1;                             // counting only: threads sharing the subtrees
    long long node_limit = 0;                    // nodes (per thread, in steps of 4096); 0: none
    PatternProgress* progress = nullptr;         // where a caller watches (may be null)
    // Internal: a unique listing that stops once max_stored classes are kept (the classes are
    // then counted apart, by their symmetries' fixed covers).
    bool stop_when_stored = false;

    // Pure counting: no solution is kept, so equal subproblems may share their counts.
    bool counting_only() const { return all_solutions && !unique && max_stored <= 0; }
};

struct PatternResult {
    long long count = 0;                        // solutions found (classes when unique)
    std::vector<std::vector<int>> solutions;    // placement ids, up to max_stored
    bool exhausted = false;                     // the search space was covered: count is exact
    std::string impossible;                     // a quick reason when no solution can exist
    long long nodes = 0;
    double seconds = 0;
    int symmetries = 1;                         // symmetries of the region (including identity)
    PatternMethod method = PatternMethod::Auto;  // the search that ran
    bool node_limited = false;                   // node_limit ended it
};

// Called every few milliseconds on the calling thread while it searches; false stops the search.
using PatternPoll = std::function<bool()>;

// A region and a multiset of pieces prepared once: the placements inside in the order the
// searches walk them, and the frontier search's tables (what a dancing-links solver's matrix is).
// Immutable once built: solve() may run on several threads at once, and again and again.
class PreparedPattern {
public:
    // Throws std::invalid_argument for a side other than 8 or 9, a cell out of range or given
    // twice, or a negative count. A puzzle found impossible here (area mismatch, a part no sum of
    // the pieces fills, a cell no piece fits) says why in impossible(); solve() returns that.
    PreparedPattern(int side, const std::vector<int>& region_cells, const std::array<int, kNumPieces>& piece_counts);
    ~PreparedPattern();

    PatternResult solve(const PatternOptions& options, const std::atomic<bool>* stop = nullptr,
                        const PatternPoll& poll = {}) const;

    int side() const;
    const std::vector<int>& cells() const;
    const std::string& impossible() const;  // empty unless found impossible while preparing
    int num_placements() const;             // placements of the pieces inside the region
    double prepare_seconds() const;

private:
    PatternResult count_classes(const PatternOptions& options, const std::atomic<bool>* stop, const PatternPoll& poll,
                                std::chrono::steady_clock::time_point t0) const;

    struct Impl;
    std::shared_ptr<const Impl> impl_;
};

// One puzzle, prepared and solved (its seconds include the preparation).
// `piece_counts[p]`: copies of piece p to use, each exactly once. `stop` (may be null) ends it
// early; so does `poll` returning false. The calling thread searches too (with extra threads
// when options.threads > 1 and counting).
PatternResult solve_pattern(int side, const std::vector<int>& region_cells,
                            const std::array<int, kNumPieces>& piece_counts, const PatternOptions& options,
                            const std::atomic<bool>* stop = nullptr, const PatternPoll& poll = {});

}  // namespace trigon::solver
