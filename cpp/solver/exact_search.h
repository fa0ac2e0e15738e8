// The exhaustive search behind can_place_all and max_placeable (exact.h): depth-first over
// placements with sound bounds (each colour's reach, what the pieces left can still cover, for
// one colour alone what its edges leave room for). Beside it: the small parts' packings
// (part_packing.h), the pool that shares its tree among threads (task_pool.h), the table of
// residual problems (key_set.h). Internal to the solver: exact.cpp drives it.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "core/position.h"
#include "solver/exact_options.h"
#include "solver/key_set.h"
#include "solver/part_packing.h"
#include "solver/reach.h"
#include "solver/task_pool.h"

namespace trigon::solver::exact_detail {

using Clock = std::chrono::steady_clock;
constexpr std::uint16_t kNone = kNoFit;  // no placement (a witness not yet found)
constexpr int kMaxCells = Bitboard::kBits;       // a Bitboard's indices
constexpr std::uint16_t kNoCell = kMaxCells - 1;  // never a cell of a board (486 at most)
constexpr int kMaxNarrowParts = 64;             // reach_crossing tracks at most this many narrow parts
using Witnesses = std::array<std::array<std::uint16_t, kNumPieces>, kNumColours>;

// The residual problems met (residual_key).
using ResidualSet = KeySet<Key128>;

class ExactSearch {
public:
    enum class Mode { AllPlaced, MaxArea };

    ExactSearch(const Position& start, std::uint8_t colours, Mode mode, const ExactOptions& o,
                const std::atomic<bool>* stop);

    std::uint32_t colours() const { return colours_; }

    // A worker of a parallel all-placed search: it stops when `halt` is set, counts its nodes
    // into `nodes` as well (node_limit bounds them all), and hands moves over to the pool when
    // another worker waits for some (each may be null).
    void join_pool(TaskPool* pool, const std::atomic<bool>* halt, std::atomic<long long>* nodes) {
        pool_ = pool;
        halt_ = halt;
        shared_nodes_ = nodes;
    }

    // From `first` nodes on, and again each time the nodes double, the search pauses for
    // `interlude` (on this thread; can_place_all runs the guided search there); true from it ends
    // the search (aborted: the interlude settled the question).
    void set_interlude(long long first, std::function<bool()> interlude) {
        next_interlude_ = first;
        interlude_ = std::move(interlude);
    }

    // The small parts' packings go to (and come from) this cache instead of its own.
    void share_cache(SharedPartCache* cache) { packer_.share_cache(cache); }

    // The next run searches a task: from its position with its excluded cells (the limits go on
    // counting; the witness then starts with the task's path).
    void restart(const SplitTask& task);

    // A new search from `start` (a position of the same board whose colours to place are among
    // this one's): its nodes, clock and residual problems start over, the limits are read again
    // from the options; the small parts' cache stays (an entry holds for any position). Cheaper
    // than a new ExactSearch (about 150 us) for many short searches (repair.h).
    void reset(const Position& start) {
        restart(SplitTask{start, {}, {}, std::nullopt});
        residuals_ = ResidualSet(opt_.residual_capacity);
        nodes_ = 0;
        aborted_ = false;
        t0_ = Clock::now();
    }

    // AllPlaced: true when a witness was found. MaxArea: true when everything was placed (else
    // it explored everything, or was stopped).
    bool run() {
        if (!colours_) return true;
        return dfs_cells(0);
    }

    bool aborted() const { return aborted_; }
    long long nodes() const { return nodes_; }
    int best_area() const { return best_area_; }
    // MaxArea: a layout found already (legal in this order): the search looks for better ones.
    void set_best(int area, std::vector<std::pair<int, int>> layout) {
        best_area_ = area;
        witness_ = std::move(layout);
    }
    const std::vector<std::pair<int, int>>& witness() const { return witness_; }

private:
    int area_of(std::uint32_t left) const {
        int a = 0;
        for (; left; left &= left - 1) a += size_[std::countr_zero(left)];
        return a;
    }

    // The edge-connected part of `left` holding its lowest cell, taken out of `left`; n gets its
    // size. (A depth-first walk over the three edge neighbours: each cell is looked at once.)
    Bitboard take_part(Bitboard& left, int& n);

    // Removes from `reach` its edge-connected parts smaller than `smallest` cells: a piece lies
    // in one such part, so the colour can cover none of their cells. `narrow` gets the cells of
    // the parts left smaller than `least_big` (none when 0).
    void drop_small_parts(Bitboard& reach, int smallest, int least_big, Bitboard& narrow);

    // The same, from `prev`: a reach (at a parent, or an earlier pass at this node) that holds
    // this one, with the same parts dropped and `narrow` its narrow cells. Only parts that lost
    // cells since then can be too small or narrow now: short walks from their cells at an edge of
    // a lost one find them (a whole-reach walk was half the time of take_part).
    void drop_new_small_parts(Bitboard& reach, const Bitboard& prev, int smallest, int least_big, Bitboard& narrow);

    // reach_of, where a chain crosses at most `small` of the parts of `narrow` (cells only the
    // colour's pieces of 1 to 3 triangles can cover, `small` of them: each part crossed holds
    // one, since a piece lies inside one part). Where that limit is used, a chain's length is
    // not (`fr` lies inside the parent's reach, which had it).
    Bitboard reach_crossing(const Position& P, int c, const Bitboard& fr, int area, const Bitboard& narrow, int small);

    // The size of the smallest of these pieces of 4 triangles or more (0: none).
    int least_big_size(std::uint32_t left) const {
        int least = 0;
        for (; left; left &= left - 1)
            if (const int s = size_[std::countr_zero(left)]; s >= 4 && (!least || s < least)) least = s;
        return least;
    }

    // How many of these pieces have 1 to 3 triangles.
    int small_count(std::uint32_t left) const {
        int n = 0;
        for (; left; left &= left - 1) n += size_[std::countr_zero(left)] <= 3;
        return n;
    }

    // The size of the smallest of these pieces.
    int smallest_size(std::uint32_t left) const {
        int smallest = kMaxPieceSize;
        for (; left; left &= left - 1) smallest = std::min(smallest, size_[std::countr_zero(left)]);
        return smallest;
    }

    // Sound bounds: every piece left must still fit inside its colour's reach, and the areas must
    // fit. Returns false to prune; `fit_area` gets, per colour, the area of the pieces that fit
    // (MaxArea: at most its reach's cells, and what its edge capacity allows).
    // At depth d (reaches and fits are kept per depth: a colour that did not move keeps its
    // parent's when the piece placed lies outside that reach, since reach only shrinks down the
    // tree, the parent's is a sound superset; here it is the same set).
    // With `only` >= 0, the position is the one they were computed for at this depth and only that
    // colour's excluded cells grew: the others keep theirs.
    bool bounds_hold(int d, const Position& P, Witnesses& wit, std::array<int, kNumColours>& fit_area, int only = -1);

    // What one colour's pieces inside `room` spend of its edge capacity, 6 |room| - 2 (edges
    // inside room): a piece of s triangles with b boundary edges spends 3 s + b. (Its boundary
    // edges lead out of room, each edge of the room's border once, or to cells of room it leaves
    // uncovered, each at most three of them, since pieces of a colour share no edge.)
    int edge_capacity(const Bitboard& room) const;

    // The most triangles of colour c's pieces that fit inside `room` (those in `fits`) spending
    // at most `capacity`: a fractional knapsack, best triangles per cost first.
    int edge_bound(std::uint32_t fits, int capacity) const;

    // The most cells the pieces left can cover, at most. A piece lies inside one edge-connected
    // part of the cells some colour reaches; a part of up to kSmallPart cells holds no more than
    // its best packing (pieces reused across parts), and the parts of 1 to 3 cells only what the
    // few pieces of 1 to 3 triangles cover (the 1-cell parts one triangle each, matched to the
    // colours that reach them). Parts of random or search-played endgames waste far more of the
    // 46 spare cells than the cells no colour reaches.
    int coverable(const Position& P, const std::array<Bitboard, kNumColours>& reaches, const Bitboard& all_reach);

    // Another worker waits: the moves not yet tried at the shallowest depth that has some (the
    // biggest shares of the tree) become tasks, each its own subtree; this search goes on with
    // the move it is in and, at that depth, the layouts that leave the cell alone.
    void hand_over(int d);

    // Every colour's legal moves at depth d: at the root generated, below it those of the
    // parent that are still legal plus, for the colour that moved, the moves at its new attach
    // points (a colour's moves only shrink when others place; a filter costs far less than a
    // generation, and the search needs every colour's count to choose the one with fewest).
    void update_lists(int d);

    // What is left to solve at depth d, as a key: per colour in play, its pieces left, the
    // free cells of its reach (reach and its free cells: reach may be a parent's superset)
    // and its attach points among them (under the alternate rule also the vertices its pieces
    // touch: they decide which placements may meet them). Every cell a colour can still cover lies in that reach,
    // and other colours' moves matter to it only by the cells they cover there, so two nodes
    // with one key have the same layouts left to find.
    Key128 residual_key(int d) const;

    // The layout placed on the way here (a task's moves, then this search's) becomes the witness.
    void take_witness() {
        witness_ = base_path_;
        witness_.insert(witness_.end(), path_.begin(), path_.end());
    }

    // Counts a node; true when a stop, the node limit or the time limit ends the search.
    bool out_of_budget();

    // Both searches branch on a cell: of the next colour's open attach points (start cells
    // before a first move), the one fewest of its legal moves cover; either one of those moves
    // covers it, or that colour never does. The branches split the layouts, so no layout is
    // reached twice (branching on a colour's next move reaches a layout of k pieces through up
    // to k! orders), and each cell left alone shrinks the colour's reach, which sharpens the
    // bounds. MaxArea: branch and bound, the best area and its layout kept; a node whose
    // placed area plus what its pieces can still cover (fit_area) is no better is cut.
    // (Branching on moves with a visited set instead: one 10-left endgame's colour open after
    // 60 s, settled here in 0.55 s; 144 one-colour questions 12.2 s against 1.85 s.)
    bool dfs_cells(int d);

    const MoveTable& t_;
    const Geometry& geo_;
    Mode mode_;
    const ExactOptions& opt_;
    const std::atomic<bool>* stop_;
    const std::atomic<bool>* halt_ = nullptr;
    std::atomic<long long>* shared_nodes_ = nullptr;
    TaskPool* pool_ = nullptr;
    std::vector<std::vector<std::pair<int, std::uint16_t>>> order_at_;  // per depth: the moves tried there, in order
    std::vector<std::size_t> at_;                                     // and the one being searched
    std::vector<int> colour_at_;                                      // and whose they are
    std::vector<std::pair<int, int>> base_path_;                      // a task's moves from the start
    std::optional<SplitParent> root_parent_;                          // and where it was split off
    std::uint32_t colours_ = 0;
    std::vector<Bitboard> touch_mask_;                          // per cell: the cells touching it (at an edge or a vertex)
    std::vector<std::array<std::uint16_t, 3>> edge_nb_;         // and those at an edge (kNoCell where fewer:
                                                                // take_part's walk needs no count)
    int size_[kNumPieces] = {};
    int cost_[kNumPieces] = {};  // per piece: 3 x its triangles + its boundary edges (edge_capacity)
    std::vector<Position> stack_;
    std::vector<std::array<Bitboard, kNumColours>> excl_;  // per depth: cells each colour will not cover
    std::vector<int> cover_count_;                         // per cell: moves covering it (zero between uses)
    std::vector<Witnesses> wit_;
    std::vector<std::array<std::vector<std::uint16_t>, kNumColours>> lists_;  // per depth, per colour
    std::vector<std::pair<int, int>> made_;                                    // the move into each depth
    std::vector<std::array<Bitboard, kNumColours>> reach_at_;                  // per depth: each colour's reach
    std::vector<std::array<Bitboard, kNumColours>> narrow_at_;                 // and its narrow cells
    std::vector<std::array<int, kNumColours>> fit_at_;                         // and the area that fits in it
    std::vector<std::array<int, kNumColours>> slack_at_;                       // and its cells beyond that area
    MoveList ml_;
    PartPacker packer_;
    int small_piece_[4] = {-1, -1, -1, -1};  // per size 1..3: the one piece of that many triangles
    // The residual problems met (all-placed: each settled "no", or an ancestor's, or with moves
    // handed over to the pool, which searches them before the pool can answer "no"). Each thread
    // keeps its own: shared, one colour order could answer "no" on the strength of a problem the
    // other order is still searching (the first order to settle it wins).
    ResidualSet residuals_;
    std::vector<std::pair<int, int>> path_, witness_;
    int placed_ = 0, best_area_ = 0;
    int joint_cover_ = 0;  // MaxArea, several colours: bounds_hold's bound on what they cover together
    long long nodes_ = 0;
    bool aborted_ = false;
    std::function<bool()> interlude_;  // set_interlude
    long long next_interlude_ = 0;
    Clock::time_point t0_;
};

}  // namespace trigon::solver::exact_detail
