// The exhaustive search behind can_place_all and max_placeable (exact.h): depth-first over
// placements with sound bounds (each colour's reach, what the pieces left can still cover, for
// one colour alone what its edges leave room for), and
// what lets several threads share one search (a pool of its subtrees, one cache of packings).
// Internal to the solver: exact.cpp drives it.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/position.h"
#include "solver/exact_options.h"
#include "solver/reach.h"

namespace trigon::solver::exact_detail {

using Clock = std::chrono::steady_clock;
constexpr std::uint16_t kNone = kNoFit;  // no placement (a witness not yet found)
constexpr int kMaxCells = Bitboard::kBits;       // a Bitboard's indices
constexpr std::uint16_t kNoCell = kMaxCells - 1;  // never a cell of a board (486 at most)
constexpr int kSmallPart = 20;                   // parts of reach up to this many cells get their best packing
static_assert(kSmallPart < 32, "a small part's cells are the bits of a 32-bit mask");
constexpr int kMaxNarrowParts = 64;             // reach_crossing tracks at most this many narrow parts
constexpr int kPackPasses = 4;                   // their packings: with pieces of at least 1, 4, 5 and 6 triangles
constexpr int kPassMinSize[kPackPasses] = {1, 4, 5, 6};
constexpr std::size_t kMaxPartCache = std::size_t{1} << 18;  // their cache's entries at most (84 bytes each)
using Witnesses = std::array<std::array<std::uint16_t, kNumPieces>, kNumColours>;

// A 128-bit key: two independent 64-bit hashes.
struct Key128 {
    std::uint64_t a = 0, b = 0;
    bool operator==(const Key128&) const = default;
};

// A key's first word: it places the key in the table, and 0 there marks an empty slot.
inline std::uint64_t& lead_word(std::uint64_t& k) { return k; }
inline std::uint64_t& lead_word(Key128& k) { return k.a; }

// Keys met already (std::uint64_t or Key128): open addressing, no deletion; it doubles when
// half full until it holds `capacity` keys, then only answers (a full table prunes less, never
// wrongly).
template <class K>
class KeySet {
public:
    explicit KeySet(std::size_t capacity) : capacity_(capacity) {}

    // True when k was not there (and now is, while there is room).
    bool insert(K k) {
        lead_word(k) |= lead_word(k) == 0;  // (0 marks an empty slot)
        if (slots_.empty()) slots_.assign(std::size_t{1} << 12, K{});
        if (2 * (used_ + 1) > slots_.size() && used_ < capacity_) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(lead_word(k)) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == k) return false;
            if (lead_word(slots_[i]) == 0) {
                if (used_ >= capacity_ || 2 * (used_ + 1) > slots_.size()) return true;  // full: not kept
                slots_[i] = k;
                ++used_;
                return true;
            }
        }
    }

private:
    void grow() {
        std::vector<K> old(slots_.size() * 2);
        old.swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (K& k : old)
            if (lead_word(k)) {
                std::size_t i = static_cast<std::size_t>(lead_word(k)) & mask;
                while (lead_word(slots_[i])) i = (i + 1) & mask;
                slots_[i] = k;
            }
    }

    std::size_t capacity_, used_ = 0;
    std::vector<K> slots_;
};

// The residual problems met (residual_key).
using ResidualSet = KeySet<Key128>;

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

// A small part's best packings: with any pieces, with pieces of 4 or more triangles, of 5 or more, with hexiamonds.
struct PartCovers {
    std::int16_t all = 0, big = 0, five = 0, six = 0;
};

// What a small part's best packings depend on, the cache's key.
struct PartKey {
    std::uint16_t cells[kSmallPart];   // a small part's cells, in order (the rest 0)
    std::uint32_t reach[kNumColours];  // per colour: which of them it reaches
    std::uint32_t pieces[kNumColours];  // and its pieces left that fit (0 if none reached)
};

struct PartEntry {
    PartKey key;
    PartCovers covers;
    bool valid;
};

// The small parts' cache shared by the threads of a parallel exhaustive search (each its own
// would pack the same parts again: 1.5 times the packings on four threads): direct-mapped,
// full size from the start, each entry under one of a few hundred locks.
class SharedPartCache {
public:
    SharedPartCache() : entries_(kMaxPartCache) {}

    std::size_t size() const { return entries_.size(); }

    bool find(std::size_t slot, const PartKey& key, PartCovers& out) {
        std::lock_guard<std::mutex> lock(locks_[slot % kLocks]);
        const PartEntry& e = entries_[slot];
        if (!e.valid || std::memcmp(&e.key, &key, sizeof key) != 0) return false;
        out = e.covers;
        return true;
    }

    void store(std::size_t slot, const PartKey& key, const PartCovers& covers) {
        std::lock_guard<std::mutex> lock(locks_[slot % kLocks]);
        entries_[slot] = {key, covers, true};
    }

private:
    static constexpr std::size_t kLocks = 512;
    std::vector<PartEntry> entries_;
    std::array<std::mutex, kLocks> locks_;
};

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
    void share_cache(SharedPartCache* cache) { shared_cache_ = cache; }

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

    // A small part's best packings (PartCovers), kept in a direct-mapped cache keyed by
    // everything they depend on (most parts outlive many nodes).
    PartCovers part_covers(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches);

    // A small part's four best packings: its placements listed once (packs_), then one
    // cover_part per smallest piece size, each stopping at the one before's best.
    PartCovers pack_part(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches);

    // The best packing of a small part (best_cover_, stopping at cap): its lowest open cell is
    // either left empty or covered by a placement anchored there (packs_), of any colour reaching
    // all its cells, each colour's piece once, no two pieces of a colour sharing an edge (a part
    // only one colour reaches is seldom filled: its pieces must be apart). Other rules are left
    // out: a bound is all it needs. Masks are the part's cells as bits (pack_part).
    void cover_part(std::uint32_t done, std::uint32_t full, int covered, int cap,
                    std::array<std::uint32_t, kNumColours>& used, std::array<std::uint32_t, kNumColours>& own);

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
    SharedPartCache* shared_cache_ = nullptr;
    std::vector<PartEntry> part_cache_;  // direct-mapped, grown (and emptied) when crowded
    std::size_t evicted_ = 0;           // entries overwritten since it last grew
    int small_piece_[4] = {-1, -1, -1, -1};        // per size 1..3: the one piece of that many triangles
    std::uint32_t no_bigger_[kSmallPart + 1] = {};  // per part size: the pieces no bigger than it
    // A small part's placements, its cells as bits: cells, the cells at an edge, the piece, the colours that may use it.
    struct LocalPlacement {
        std::uint32_t cells, adj;
        std::uint8_t piece, colours;
    };
    std::vector<LocalPlacement> packs_;      // pack_part's placements inside the part, by lowest bit
    int pack_first_[kSmallPart + 1] = {};    // and where each bit's start
    std::vector<std::int8_t> local_bit_;     // per board cell: its bit in the part being packed (-1 outside)
    // Per pass: the most triangles, at most v, that pieces of its least size or more add up to.
    int most_sum_[kPackPasses][kSmallPart + 1] = {};
    int best_cover_ = 0;                     // cover_part's best so far
    int pass_ = 0;                           // and its pass (kPassMinSize)
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
