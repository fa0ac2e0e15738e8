#include "solver/exact.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstring>
#include <memory>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "core/random.h"
#include "solver/solo.h"

namespace trigon::solver {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint16_t kNone = 0xFFFF;
constexpr long long kQuickNodes = 20000;     // the quick exhaustive stage's nodes at most
constexpr double kQuickMinSeconds = 0.01;    // and its least time
constexpr double kQuickShare = 0.004;        // and its share of the time limit
constexpr long long kFinishQuicklyNodes = 2000;  // one colour's all-placed search before branch and bound
constexpr int kMaxCells = Bitboard::kBits;       // a Bitboard's indices
constexpr std::uint16_t kNoCell = kMaxCells - 1;  // never a cell of a board (486 at most)
constexpr int kSmallPart = 16;                   // parts of reach up to this many cells get their best packing
constexpr std::size_t kMaxPartCache = std::size_t{1} << 18;  // their cache's entries at most (64 bytes each)
using Witnesses = std::array<std::array<std::uint16_t, kNumPieces>, kNumColours>;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Triangles of the pieces colour c has left.
int area_left(const Position& P, int c) {
    int a = 0;
    for (std::uint32_t l = P.pieces_left(c); l; l &= l - 1) a += trigon_pieces()[std::countr_zero(l)].size;
    return a;
}

// The positions (hashes of the placements made since the root) already searched: open
// addressing, no deletion; it doubles when half full until it holds `capacity` keys, then only
// answers (a full table prunes less, never wrongly).
class VisitedSet {
public:
    explicit VisitedSet(std::size_t capacity) : capacity_(capacity), slots_(std::size_t{1} << 12, 0) {}

    // True when h was not there (and now is, while there is room).
    bool insert(std::uint64_t h) {
        h |= h == 0;  // 0 marks an empty slot
        if (2 * (used_ + 1) > slots_.size() && used_ < capacity_) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == h) return false;
            if (slots_[i] == 0) {
                if (used_ >= capacity_ || 2 * (used_ + 1) > slots_.size()) return true;  // full: not kept
                slots_[i] = h;
                ++used_;
                return true;
            }
        }
    }

private:
    void grow() {
        std::vector<std::uint64_t> old(slots_.size() * 2, 0);
        old.swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (auto h : old)
            if (h) {
                std::size_t i = static_cast<std::size_t>(h) & mask;
                while (slots_[i]) i = (i + 1) & mask;
                slots_[i] = h;
            }
    }

    std::size_t capacity_, used_ = 0;
    std::vector<std::uint64_t> slots_;
};

// A share of a parallel all-placed search: the layouts below a node, searched from its position
// with its excluded cells; `path` leads there from the start.
struct SplitTask {
    Position start;
    std::array<Bitboard, kNumColours> excl;
    std::vector<std::pair<int, int>> path;
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

// A small part's best packings: with any pieces, with pieces of 4 or more triangles, with hexiamonds.
struct PartCovers {
    std::int16_t all = 0, big = 0, six = 0;
};

// What a small part's best packings depend on, the cache's key.
struct PartKey {
    std::uint16_t cells[kSmallPart];   // a small part's cells, in order (the rest 0)
    std::uint16_t reach[kNumColours];  // per colour: which of them it reaches
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
                const std::atomic<bool>* stop)
        : t_(start.table()), geo_(t_.geo()), mode_(mode), opt_(o), stop_(stop), tt_(o.tt_capacity) {
        for (int c = 0; c < kNumColours; ++c)
            if ((colours >> c & 1) && start.in_play(c) && start.pieces_left(c)) colours_ |= 1u << c;
        const int n = geo_.num_cells();
        touch_mask_.resize(n);
        edge_nb_.assign(n, {kNoCell, kNoCell, kNoCell});
        for (int c = 0; c < n; ++c) {
            int k = 0;
            for (int x : geo_.edge_neighbours(c)) {
                touch_mask_[c].set(x);
                edge_nb_[c][k++] = static_cast<std::uint16_t>(x);
            }
            for (int x : geo_.vertex_neighbours(c)) touch_mask_[c].set(x);
        }
        for (int p = 0; p < kNumPieces; ++p) {
            size_[p] = trigon_pieces()[p].size;
            if (size_[p] <= 3) small_piece_[size_[p]] = p;
        }
        if (mode == Mode::MaxArea) {  // keys of the visited set (the all-placed search needs none)
            Rng rng(0x5eed);
            zob_.resize(static_cast<std::size_t>(kNumColours) * t_.num_placements());
            for (auto& z : zob_) z = rng.next();
        }
        const int depth = kNumColours * kNumPieces + 2;
        stack_.assign(depth, start);
        excl_.assign(depth, {});
        cover_count_.assign(n, 0);
        wit_.resize(depth);
        for (auto& w : wit_[0]) w.fill(kNone);
        lists_.resize(depth);
        reach_at_.resize(depth);
        fit_at_.resize(depth);
        slack_at_.resize(depth);
        made_.assign(depth, {-1, -1});
        order_at_.resize(depth);
        at_.assign(depth, 0);
        colour_at_.assign(depth, -1);
        t0_ = Clock::now();
    }

    std::uint32_t colours() const { return colours_; }

    // A worker of a parallel all-placed search: it stops when `halt` is set, counts its nodes
    // into `nodes` as well (node_limit bounds them all), and hands moves over to the pool when
    // another worker waits for some.
    void join_pool(TaskPool* pool, const std::atomic<bool>* halt, std::atomic<long long>* nodes) {
        pool_ = pool;
        halt_ = halt;
        shared_nodes_ = nodes;
    }

    // The small parts' packings go to (and come from) this cache instead of its own.
    void share_cache(SharedPartCache* cache) { shared_cache_ = cache; }

    // The next run searches a task: from its position with its excluded cells (the limits go on
    // counting; the witness then starts with the task's path).
    void restart(const SplitTask& task) {
        stack_[0] = task.start;
        excl_[0] = task.excl;
        for (auto& w : wit_[0]) w.fill(kNone);
        made_[0] = {-1, -1};
        path_.clear();
        witness_.clear();
        base_path_ = task.path;
    }

    // AllPlaced: true when a witness was found. MaxArea: explores everything (or until stopped).
    bool run() {
        if (!colours_) return true;
        return mode_ == Mode::AllPlaced ? dfs_cells(0) : dfs(0, 0);
    }

    bool aborted() const { return aborted_; }
    long long nodes() const { return nodes_; }
    int best_area() const { return best_area_; }
    const std::vector<std::pair<int, int>>& witness() const { return witness_; }

private:
    int area_of(std::uint32_t left) const {
        int a = 0;
        for (; left; left &= left - 1) a += size_[std::countr_zero(left)];
        return a;
    }

    // Cells colour c could ever cover: free cells joined to its attach points (or free start
    // cells) through chains of touching free cells, at most area - 1 steps long: the colour's
    // new cells form such a chain from a seed it covers to any cell it covers.
    Bitboard reach_of(const Position& P, int c, const Bitboard& fr, int area) {
        Bitboard reach = (P.started(c) ? P.attach_points(c) : P.start_cells(c)) & fr;
        Bitboard ring = reach;  // the cells one step further than the ring before
        for (int step = 1; step < area && ring.any(); ++step) {
            Bitboard next;
            ring.for_each([&](int x) { next |= touch_mask_[x]; });
            ring = (next & fr) - reach;
            reach |= ring;
        }
        return reach;
    }

    // The edge-connected part of `left` holding its lowest cell, taken out of `left`; n gets its
    // size. (A depth-first walk over the three edge neighbours: each cell is looked at once.)
    Bitboard take_part(Bitboard& left, int& n) {
        Bitboard part;
        int stack[kMaxCells], top = 0;
        const int seed = left.first();
        left.reset(seed);
        part.set(seed);
        stack[top++] = seed;
        n = 1;
        while (top) {
            for (const std::uint16_t x : edge_nb_[stack[--top]])
                if (left.test(x)) {  // (kNoCell is never in left)
                    left.reset(x);
                    part.set(x);
                    stack[top++] = x;
                    ++n;
                }
        }
        return part;
    }

    // Removes from `reach` its edge-connected parts smaller than `smallest` cells: a piece lies
    // in one such part, so the colour can cover none of their cells.
    void drop_small_parts(Bitboard& reach, int smallest) {
        if (smallest <= 1) return;
        Bitboard left = reach;
        while (left.any()) {
            int n;
            const Bitboard part = take_part(left, n);
            if (n < smallest) reach -= part;
        }
    }

    // A placement of piece p inside `reach`, or kNone: only those whose lowest cell is in reach
    // are looked at (reach is a small part of the board in endgames).
    std::uint16_t fit_inside(const Bitboard& reach, int p) const {
        for (int k = 0; k < static_cast<int>(std::size(reach.w)); ++k)
            for (std::uint64_t bits = reach.w[k]; bits; bits &= bits - 1) {
                const auto [first, last] = t_.anchored(k * 64 + std::countr_zero(bits), p);
                for (int id = first; id < last; ++id)
                    if ((t_.cells_mask(id) - reach).none()) return static_cast<std::uint16_t>(id);
            }
        return kNone;
    }

    // Sound bounds: every piece left must still fit inside its colour's reach, and the areas must
    // fit. Returns false to prune; `fit_area` gets, per colour, the area of the pieces that fit.
    // At depth d (reaches and fits are kept per depth: a colour that did not move keeps its
    // parent's when the piece placed lies outside that reach, since reach only shrinks down the
    // tree, the parent's is a sound superset; here it is the same set).
    // With `only` >= 0, the position is the one they were computed for at this depth and only that
    // colour's excluded cells grew: the others keep theirs.
    bool bounds_hold(int d, const Position& P, Witnesses& wit, std::array<int, kNumColours>& fit_area, int only = -1) {
        Bitboard all_reach;
        int total = 0;
        auto& reaches = reach_at_[d];
        for (int c = 0; c < kNumColours; ++c) {
            fit_area[c] = 0;
            const std::uint32_t left = (colours_ >> c & 1) ? P.pieces_left(c) : 0;
            if (!left) {
                reaches[c] = Bitboard{};
                continue;
            }
            const int area = area_of(left);
            const bool keep_own = only >= 0 && c != only;  // a later pass here: its own still hold
            if (keep_own || (d > 0 && only < 0 && c != made_[d].first &&
                             !t_.cells_mask(made_[d].second).intersects(reach_at_[d - 1][c]))) {
                if (!keep_own) {
                    reaches[c] = reach_at_[d - 1][c];
                    fit_at_[d][c] = fit_at_[d - 1][c];
                    slack_at_[d][c] = slack_at_[d - 1][c];
                }
                fit_area[c] = fit_at_[d][c];
                all_reach |= reaches[c];
                total += area;
                continue;
            }
            const Bitboard fr = geo_.all_cells() - P.forbidden(c) - excl_[d][c];
            Bitboard& reach = reaches[c];
            reach = reach_of(P, c, fr, area);
            int smallest = kMaxPieceSize;
            for (std::uint32_t l = left; l; l &= l - 1) smallest = std::min(smallest, size_[std::countr_zero(l)]);
            drop_small_parts(reach, smallest);
            const int room = reach.count();
            if (mode_ == Mode::AllPlaced && area > room) return false;
            slack_at_[d][c] = room - area;
            all_reach |= reach;
            total += area;
            for (std::uint32_t l = left; l; l &= l - 1) {
                const int p = std::countr_zero(l);
                std::uint16_t& w = wit[c][p];
                if (w == kNone || (t_.cells_mask(w) - reach).any()) w = fit_inside(reach, p);
                if (w == kNone) {
                    if (mode_ == Mode::AllPlaced) return false;
                } else {
                    fit_area[c] += size_[p];
                }
            }
            fit_area[c] = std::min(fit_area[c], room);
        }
        fit_at_[d] = fit_area;
        return mode_ != Mode::AllPlaced || (total <= all_reach.count() && total <= coverable(P, reaches, all_reach));
    }

    // The most cells the pieces left can cover, at most. A piece lies inside one edge-connected
    // part of the cells some colour reaches; a part of up to kSmallPart cells holds no more than
    // its best packing (pieces reused across parts), and the parts of 1 to 3 cells only what the
    // few pieces of 1 to 3 triangles cover (the 1-cell parts one triangle each, matched to the
    // colours that reach them). Parts of random or search-played endgames waste far more of the
    // 46 spare cells than the cells no colour reaches.
    int coverable(const Position& P, const std::array<Bitboard, kNumColours>& reaches, const Bitboard& all_reach) {
        int bound = 0;
        int small_cover[4] = {};    // per part size 1..3: the parts' best covers added up
        int singles[16] = {};       // 1-cell parts, by the colours whose triangle can cover them
        std::uint32_t have[4] = {};  // per size 1..3: the colours that still have that piece
        int mid_all = 0, mid_big = 0, mid_six = 0, mid_area = 0;
        for (int c = 0; c < kNumColours; ++c)
            if (reaches[c].any()) {
                for (int s = 1; s <= 3; ++s)
                    if (P.pieces_left(c) >> small_piece_[s] & 1) have[s] |= 1u << c;
                for (std::uint32_t l = P.pieces_left(c); l; l &= l - 1)
                    if (const int s = size_[std::countr_zero(l)]; s == 4 || s == 5) mid_area += s;
            }
        Bitboard left = all_reach;
        while (left.any()) {
            int n;
            const Bitboard part = take_part(left, n);
            if (n > kSmallPart) {
                bound += n;
                continue;
            }
            if (n == 1) {
                const int x = part.first();
                std::uint32_t m = 0;
                for (std::uint32_t h = have[1]; h; h &= h - 1)
                    if (reaches[std::countr_zero(h)].test(x)) m |= h & -h;
                if (m) {
                    ++singles[m];
                    ++small_cover[1];
                }
                continue;
            }
            const PartCovers pc = part_covers(P, part, n, reaches);
            if (n <= 3) {
                small_cover[n] += pc.all;
                continue;
            }
            mid_all += pc.all;
            mid_big += pc.big;
            mid_six += pc.six;
        }
        // 1-cell parts covered: a largest matching of parts to triangles (Koenig: a smallest
        // vertex cover, some triangles plus the parts reaching a triangle outside them).
        int matched = INT_MAX;
        for (std::uint32_t t = have[1];; t = (t - 1) & have[1]) {
            int cover = std::popcount(t);
            for (std::uint32_t m = 1; m < 16; ++m)
                if (m & ~t) cover += singles[m];
            matched = std::min(matched, cover);
            if (!t) break;
        }
        const int n1 = std::popcount(have[1]), n2 = std::popcount(have[2]), n3 = std::popcount(have[3]);
        const int x1 = std::min(small_cover[1], matched);
        const int x12 = std::min(x1 + small_cover[2], n1 + 2 * n2);
        // The parts of 4 to kSmallPart cells: their best packings; or with pieces of 4 or more
        // triangles at most mid_big, the rest by pieces of 1 to 3; or with hexiamonds at most
        // mid_six, the rest by pieces of 4 or 5 triangles (mid_area of them left) and 1 to 3.
        const int small_parts = x12 + small_cover[3];
        return bound + std::min(small_parts + mid_all,
                                std::min(mid_big, mid_six + mid_area) + std::min(small_parts + mid_all, n1 + 2 * n2 + 3 * n3));
    }

    // A small part's best packings (PartCovers), kept in a direct-mapped cache keyed by
    // everything they depend on (most parts outlive many nodes).
    PartCovers part_covers(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches) {
        PartKey key{};
        int k = 0;
        part.for_each([&](int x) { key.cells[k++] = static_cast<std::uint16_t>(x); });
        std::uint32_t fits = 0;  // the pieces no bigger than the part
        for (int p = 0; p < kNumPieces; ++p)
            if (size_[p] <= n) fits |= 1u << p;
        std::uint64_t h = 0x9E3779B97F4A7C15ull * (key.cells[0] + 1) + static_cast<std::uint64_t>(n);
        for (int c = 0; c < kNumColours; ++c) {
            for (int i = 0; i < n; ++i)
                if (reaches[c].test(key.cells[i])) key.reach[c] |= static_cast<std::uint16_t>(1u << i);
            key.pieces[c] = key.reach[c] ? P.pieces_left(c) & fits : 0;
            h = (h ^ (static_cast<std::uint64_t>(key.reach[c]) << 32 ^ key.pieces[c])) * 0xBF58476D1CE4E5B9ull;
        }
        for (int i = 1; i < n; ++i) h = (h ^ key.cells[i]) * 0x94D049BB133111EBull;
        if (shared_cache_) {
            const std::size_t slot = (h ^ h >> 29) & (shared_cache_->size() - 1);
            PartCovers out;
            if (!shared_cache_->find(slot, key, out)) {
                out = pack_part(P, part, n, reaches);
                shared_cache_->store(slot, key, out);
            }
            return out;
        }
        if (part_cache_.empty() || evicted_ > 2 * part_cache_.size()) {  // start small, grow when crowded
            const std::size_t size = part_cache_.empty() ? std::size_t{1} << 12 : std::min(part_cache_.size() * 2, kMaxPartCache);
            part_cache_.assign(size, PartEntry{});
            evicted_ = 0;
        }
        PartEntry& e = part_cache_[(h ^ h >> 29) & (part_cache_.size() - 1)];
        if (e.valid && std::memcmp(&e.key, &key, sizeof key) == 0) return e.covers;
        if (e.valid && part_cache_.size() < kMaxPartCache) ++evicted_;
        const PartCovers out = pack_part(P, part, n, reaches);
        e = {key, out, true};
        return out;
    }

    // A small part's three best packings.
    PartCovers pack_part(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches) {
        PartCovers out;
        std::array<std::uint32_t, kNumColours> used{};
        for (int min_size : {1, 4, 6}) {
            best_cover_ = 0;
            min_size_ = min_size;
            if (min_size <= n) cover_part(P, part, n, Bitboard{}, 0, reaches, used);
            (min_size == 1 ? out.all : min_size == 4 ? out.big : out.six) = static_cast<std::int16_t>(best_cover_);
        }
        return out;
    }

    // The best packing of a small part (best_cover_): its lowest open cell is either left empty
    // or covered by a placement anchored there, of any colour reaching all its cells, each
    // colour's piece once, no two pieces of a colour sharing an edge (a part only one colour reaches
    // is seldom filled: its pieces must be apart). Other rules are left out: a bound is all it needs.
    void cover_part(const Position& P, const Bitboard& part, int n, const Bitboard& done, int covered,
                    const std::array<Bitboard, kNumColours>& reaches, std::array<std::uint32_t, kNumColours>& used) {
        best_cover_ = std::max(best_cover_, covered);
        const Bitboard open = part - done;
        if (open.none() || best_cover_ == n || covered + open.count() <= best_cover_) return;
        const int x = open.first();
        for (int c = 0; c < kNumColours; ++c) {
            if (!reaches[c].test(x)) continue;
            const Bitboard room = open & reaches[c];
            const int fits = room.count();
            for (std::uint32_t l = P.pieces_left(c) & ~used[c]; l; l &= l - 1) {
                const int p = std::countr_zero(l);
                if (size_[p] > fits || size_[p] < min_size_) continue;
                const auto [first, last] = t_.anchored(x, p);
                for (int id = first; id < last; ++id) {
                    const Bitboard& cells = t_.cells_mask(id);
                    if ((cells - room).any() || t_.adj_mask(id).intersects(own_[c])) continue;
                    used[c] |= 1u << p;
                    own_[c] |= cells;
                    cover_part(P, part, n, done | cells, covered + size_[p], reaches, used);
                    own_[c] -= cells;
                    used[c] &= ~(1u << p);
                    if (best_cover_ == n) return;
                }
            }
        }
        Bitboard skip = done;
        skip.set(x);
        cover_part(P, part, n, skip, covered, reaches, used);
    }

    // Another worker waits: the moves not yet tried at the shallowest depth that has some (the
    // biggest shares of the tree) become tasks, each its own subtree; this search goes on with
    // the move it is in and, at that depth, the layouts that leave the cell alone.
    void hand_over(int d) {
        for (int j = 0; j <= d; ++j) {
            auto& order = order_at_[j];
            if (at_[j] + 1 >= order.size()) continue;
            std::vector<SplitTask> tasks;
            std::vector<std::pair<int, int>> path = base_path_;
            path.insert(path.end(), path_.begin(), path_.begin() + j);
            for (std::size_t k = at_[j] + 1; k < order.size(); ++k) {
                SplitTask t{stack_[j], excl_[j], path};
                t.start.place(colour_at_[j], order[k].second);
                t.path.push_back({colour_at_[j], order[k].second});
                tasks.push_back(std::move(t));
            }
            order.resize(at_[j] + 1);
            pool_->give(std::move(tasks));
            return;
        }
    }

    // Every colour's legal moves at depth d: at the root generated, below it those of the
    // parent that are still legal plus, for the colour that moved, the moves at its new attach
    // points (a colour's moves only shrink when others place; a filter costs far less than a
    // generation, and the search needs every colour's count to choose the one with fewest).
    void update_lists(int d) {
        const Position& P = stack_[d];
        auto& lists = lists_[d];
        for (int c = 0; c < kNumColours; ++c) {
            auto& out = lists[c];
            out.clear();
            if (!(colours_ >> c & 1) || !P.pieces_left(c)) continue;
            const Bitboard& excl = excl_[d][c];
            if (d == 0 || !stack_[d - 1].started(c)) {  // (a first move also moves others' start cells)
                P.generate(c, ml_);
                for (auto id : ml_)
                    if (!t_.cells_mask(id).intersects(excl)) out.push_back(id);
                continue;
            }
            for (auto id : lists_[d - 1][c])
                if (P.still_legal(c, id)) out.push_back(id);
            if (c == made_[d].first) {
                const int n = P.generate_at(c, P.attach_points(c) - stack_[d - 1].attach_points(c), ml_.moves.data());
                for (int k = 0; k < n; ++k)
                    if (!t_.cells_mask(ml_.moves[k]).intersects(excl)) out.push_back(ml_.moves[k]);
            }
        }
    }

    bool out_of_budget() {
        if ((++nodes_ & 255) == 0) {
            const long long all = shared_nodes_ ? shared_nodes_->fetch_add(256) + 256 : nodes_;
            if ((stop_ && stop_->load()) || (halt_ && halt_->load()) || (opt_.node_limit > 0 && all > opt_.node_limit) ||
                (opt_.time_limit > 0 && std::chrono::duration<double>(Clock::now() - t0_).count() > opt_.time_limit))
                aborted_ = true;
        } else if (!shared_nodes_ && opt_.node_limit > 0 && nodes_ > opt_.node_limit) {
            aborted_ = true;
        }
        return aborted_;
    }

    bool dfs(int d, std::uint64_t hash) {
        if (out_of_budget()) return true;
        const Position& P = stack_[d];
        if (mode_ == Mode::MaxArea && placed_ > best_area_) {
            best_area_ = placed_;
            witness_ = path_;
        }
        std::array<int, kNumColours> fit{};
        if (!bounds_hold(d, P, wit_[d], fit)) return false;
        update_lists(d);
        int colour = -1;
        std::size_t fewest = SIZE_MAX;
        for (int c = 0; c < kNumColours; ++c) {
            if (!(colours_ >> c & 1) || !P.pieces_left(c)) continue;
            if (mode_ == Mode::MaxArea && placed_ + fit[c] <= best_area_) return false;
            const auto& list = lists_[d][c];
            if (list.empty()) {
                if (mode_ == Mode::AllPlaced) return false;
                continue;
            }
            if (list.size() < fewest) {
                fewest = list.size();
                colour = c;
            }
        }
        if (colour < 0) {
            if (mode_ == Mode::AllPlaced) {
                witness_ = base_path_;
                witness_.insert(witness_.end(), path_.begin(), path_.end());
                return true;
            }
            return false;
        }
        // Big pieces first, then the snuggest.
        const Bitboard empty = geo_.all_cells() - P.occupied_all();
        const auto& mv = lists_[d][colour];
        std::vector<std::pair<int, std::uint16_t>> order;
        order.reserve(mv.size());
        for (auto id : mv)
            order.push_back({-100 * t_.placement(id).size + (t_.adj_mask(id) & empty).count(), id});
        std::sort(order.begin(), order.end());
        for (auto [_, id] : order) {
            const std::uint64_t h = hash ^ zob_[static_cast<std::size_t>(colour) * t_.num_placements() + id];
            if (!tt_.insert(h)) continue;  // reached before (and failed, or the search would be over)
            stack_[d + 1] = stack_[d];
            stack_[d + 1].place(colour, id);
            wit_[d + 1] = wit_[d];
            path_.push_back({colour, id});
            made_[d + 1] = {colour, id};
            placed_ += t_.placement(id).size;
            const bool end = dfs(d + 1, h);
            placed_ -= t_.placement(id).size;
            path_.pop_back();
            if (end) return true;
        }
        return false;
    }

    // The all-placed search branches on a cell: of the next colour's open attach points (start
    // cells before a first move), the one fewest of its legal moves cover; either one of those
    // moves covers it, or that colour never does. The branches split the layouts, so no layout
    // is reached twice (branching on a colour's next move reaches a layout of k pieces through
    // up to k! orders) and no visited set is needed.
    bool dfs_cells(int d) {
        const Position& P = stack_[d];
        std::array<int, kNumColours> fit{};
        for (int grown = -1;; ) {  // grown: the colour whose excluded cells grew since the last pass
            if (out_of_budget()) return true;
            if (!bounds_hold(d, P, wit_[d], fit, grown)) return false;
            if (grown < 0) update_lists(d);
            int colour = -1, cell = -1, fewest = INT_MAX;
            // The next colour: fewest legal moves, or least slack first (ties: fewest moves).
            std::pair<long long, std::size_t> least{LLONG_MAX, SIZE_MAX};
            for (int c = 0; c < kNumColours; ++c) {
                if (!(colours_ >> c & 1) || !P.pieces_left(c)) continue;
                const auto& list = lists_[d][c];
                if (list.empty()) return false;
                const std::pair<long long, std::size_t> key{opt_.least_slack ? slack_at_[d][c] : 0, list.size()};
                if (key < least) {
                    least = key;
                    colour = c;
                }
            }
            if (colour < 0) {  // every colour has placed everything
                witness_ = base_path_;
                witness_.insert(witness_.end(), path_.begin(), path_.end());
                return true;
            }
            // Of the next colour's open cells, the one fewest of its moves cover.
            const Bitboard open = (P.started(colour) ? P.attach_points(colour) : P.start_cells(colour)) - excl_[d][colour];
            for (auto id : lists_[d][colour]) (t_.cells_mask(id) & open).for_each([&](int x) { ++cover_count_[x]; });
            open.for_each([&](int x) {
                const int k = cover_count_[x];
                cover_count_[x] = 0;
                if (k == 0) {
                    excl_[d][colour].set(x);  // no move covers it now, so none ever will: sharpens the reach
                } else if (k < fewest) {
                    fewest = k;
                    cell = x;
                }
            });
            // Big pieces first, then the snuggest. (cell < 0 cannot happen: every legal move covers
            // an open cell; were it so, all the colour's moves are tried and nothing is excluded.)
            const Bitboard empty = geo_.all_cells() - P.occupied_all();
            auto& order = order_at_[d];
            order.clear();
            for (auto id : lists_[d][colour])
                if (cell < 0 || t_.cells_mask(id).test(cell))
                    order.push_back({-100 * t_.placement(id).size + (t_.adj_mask(id) & empty).count(), id});
            std::sort(order.begin(), order.end());
            colour_at_[d] = colour;
            for (std::size_t k = 0; k < order.size(); ++k) {  // (order shrinks when moves are handed over)
                at_[d] = k;
                if (pool_ && pool_->hungry()) hand_over(d);
                const int id = order[k].second;
                stack_[d + 1] = P;
                stack_[d + 1].place(colour, id);
                excl_[d + 1] = excl_[d];
                wit_[d + 1] = wit_[d];
                path_.push_back({colour, id});
                made_[d + 1] = {colour, id};
                const bool end = dfs_cells(d + 1);
                path_.pop_back();
                if (end) return true;
            }
            if (cell < 0) return false;
            // Then the layouts in which this colour leaves the cell alone, at this same node.
            excl_[d][colour].set(cell);
            auto& list = lists_[d][colour];
            list.erase(std::remove_if(list.begin(), list.end(), [&](std::uint16_t id) { return t_.cells_mask(id).test(cell); }),
                       list.end());
            grown = colour;
        }
    }

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
    std::uint32_t colours_ = 0;
    std::vector<Bitboard> touch_mask_;                          // per cell: the cells touching it (at an edge or a vertex)
    std::vector<std::array<std::uint16_t, 3>> edge_nb_;         // and those at an edge (kNoCell where fewer:
                                                                // take_part's walk needs no count)
    int size_[kNumPieces] = {};
    std::vector<std::uint64_t> zob_;
    std::vector<Position> stack_;
    std::vector<std::array<Bitboard, kNumColours>> excl_;  // per depth: cells each colour will not cover
    std::vector<int> cover_count_;                         // per cell: moves covering it (zero between uses)
    std::vector<Witnesses> wit_;
    std::vector<std::array<std::vector<std::uint16_t>, kNumColours>> lists_;  // per depth, per colour
    std::vector<std::pair<int, int>> made_;                                    // the move into each depth
    std::vector<std::array<Bitboard, kNumColours>> reach_at_;                  // per depth: each colour's reach
    std::vector<std::array<int, kNumColours>> fit_at_;                         // and the area that fits in it
    std::vector<std::array<int, kNumColours>> slack_at_;                       // and its cells beyond that area
    MoveList ml_;
    SharedPartCache* shared_cache_ = nullptr;
    std::vector<PartEntry> part_cache_;  // direct-mapped, grown (and emptied) when crowded
    std::size_t evicted_ = 0;           // entries overwritten since it last grew
    int small_piece_[4] = {-1, -1, -1, -1};  // per size 1..3: the one piece of that many triangles
    int best_cover_ = 0;                     // cover_part's best so far
    std::array<Bitboard, kNumColours> own_{};  // and the cells of each colour in its packing
    int min_size_ = 1;                       // and the smallest piece it may use
    VisitedSet tt_;
    std::vector<std::pair<int, int>> path_, witness_;
    int placed_ = 0, best_area_ = 0;
    long long nodes_ = 0;
    bool aborted_ = false;
    Clock::time_point t0_;
};

}  // namespace

namespace {

// The guided search as can_place_all runs it: the colours asked, the triangle anywhere.
SoloOptions guided_options(const ExactOptions& options, double time_limit, int threads) {
    SoloOptions so;
    so.colours = options.colours;
    so.triangle_last = false;
    so.time_limit = time_limit;
    so.threads = threads;
    return so;
}

// The all-placed search's answer: 1 yes (with the witness), 0 no, -1 stopped first.
struct Exhaustive {
    int answer = -1;
    std::vector<std::pair<int, int>> witness;
    long long nodes = 0;
};

// The all-placed search on `workers` threads: one starts at the root, and a busy worker hands
// its untried moves at its shallowest open depth to a waiting one (work stealing: subtrees
// differ in size by orders of magnitude, a fixed split leaves threads idle). The first "yes"
// stops the others; "no" needs every task searched.
Exhaustive exhaustive_search(const Position& start, const ExactOptions& o, const std::atomic<bool>* stop, int workers,
                             SharedPartCache* cache = nullptr) {
    Exhaustive out;
    if (workers <= 1) {
        ExactSearch s(start, o.colours, ExactSearch::Mode::AllPlaced, o, stop);
        s.share_cache(cache);
        const bool found = s.run();
        if (!s.aborted()) {
            out.answer = found ? 1 : 0;
            if (found) out.witness = s.witness();
        }
        out.nodes = s.nodes();
        return out;
    }
    std::unique_ptr<SharedPartCache> own_cache;
    if (!cache) cache = (own_cache = std::make_unique<SharedPartCache>()).get();
    std::atomic<long long> shared_nodes{0};
    std::atomic<bool> halt{false}, aborted{false};
    TaskPool pool(SplitTask{start, {}, {}}, halt);
    std::mutex found_mutex;
    auto work = [&] {
        ExactSearch s(start, o.colours, ExactSearch::Mode::AllPlaced, o, stop);
        s.join_pool(&pool, &halt, &shared_nodes);
        s.share_cache(cache);
        for (SplitTask task{start, {}, {}}; pool.take(task);) {
            s.restart(task);
            const bool found = s.run();
            if (s.aborted()) {
                aborted = true;  // (or stopped by a "yes": that one wins below)
                halt = true;
            } else if (found) {
                std::lock_guard<std::mutex> lock(found_mutex);
                if (out.answer != 1) {
                    out.answer = 1;
                    out.witness = s.witness();
                }
                halt = true;
            }
            pool.done();
        }
        std::lock_guard<std::mutex> lock(found_mutex);
        out.nodes += s.nodes();
    };
    std::vector<std::thread> pool_threads;
    for (int k = 1; k < workers; ++k) pool_threads.emplace_back(work);
    work();
    for (auto& t : pool_threads) t.join();
    if (out.answer != 1) out.answer = aborted.load() ? -1 : 0;
    return out;
}

// The all-placed search on `workers` threads in both colour orders (fewest moves first, least
// slack first: each settles endgames the other cannot, by orders of magnitude), the threads
// shared between them (the first order gets the odd one); the first to settle it stops the other.
Exhaustive exhaustive_both_orders(const Position& start, const ExactOptions& o, const std::atomic<bool>* stop, int workers) {
    if (workers <= 1 || !o.both_orders) return exhaustive_search(start, o, stop, workers);
    std::atomic<bool> halt{false};
    std::atomic<bool> relay_done{false};
    std::thread relay([&] {  // the caller's stop reaches both
        while (!relay_done.load()) {
            if (stop && stop->load()) halt = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    ExactOptions other = o;
    other.least_slack = !o.least_slack;
    SharedPartCache cache;  // (a part's packings do not depend on the order)
    Exhaustive second;
    std::thread second_thread([&] {
        second = exhaustive_search(start, other, &halt, workers / 2, &cache);
        if (second.answer >= 0) halt = true;
    });
    Exhaustive first = exhaustive_search(start, o, &halt, workers - workers / 2, &cache);
    if (first.answer >= 0) halt = true;
    second_thread.join();
    relay_done = true;
    relay.join();
    Exhaustive& out = first.answer >= 0 ? first : second;
    out.nodes = first.nodes + second.nodes;
    return std::move(out);
}

// The layout to report when not proven, and the triangles it places.
void set_best_layout(ExactResult& r, const Position& start, std::vector<std::pair<int, int>> layout) {
    r.best_layout = std::move(layout);
    r.best_triangles = 0;
    for (auto [c, id] : r.best_layout) r.best_triangles += start.table().placement(id).size;
}

// The last stage on several threads: the guided search looks for a "yes" while the exhaustive
// search looks for either answer, both with all the time left; the first to settle it stops the
// other. (One after the other, a near-miss endgame's "yes" can need more than the guided
// search's 30%, and a "no" more than the exhaustive 70%.) Each gets half the threads (the guided
// search at least one): at a dozen pieces a colour a "yes" is the guided search's, whose runs'
// times spread widely with the seed, at ten a "no" the exhaustive search's.
ExactResult guided_beside_exhaustive(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop,
                                     Clock::time_point t0, ExactResult r) {
    const double left = options.time_limit > 0 ? std::max(0.01, options.time_limit - since(t0)) : 0.0;
    const int threads = std::min(options.threads, 64);
    const int guided_threads = std::max(1, threads / 2);
    SoloSearch guided(start, guided_options(options, left, guided_threads));
    guided.start();
    std::atomic<bool> halt{false}, exhaustive_done{false};
    std::thread watcher([&] {
        while (!guided.wait_for(0.01))
            if ((stop && stop->load()) || exhaustive_done.load()) guided.stop();
        if ((stop && stop->load()) || !guided.solutions().empty()) halt = true;
    });
    ExactOptions rest = options;
    rest.time_limit = left;
    const Exhaustive e = exhaustive_both_orders(start, rest, &halt, threads - guided_threads);
    if (e.answer >= 0) halt = true;
    exhaustive_done = true;
    watcher.join();
    guided.join();
    r.nodes += e.nodes + guided.stats().nodes;
    const auto sols = guided.solutions();
    if (!sols.empty()) {
        r.answer = 1;
        r.witness = sols.front().moves;
    } else if (e.answer >= 0) {
        r.answer = e.answer;
        r.witness = e.witness;
    } else {
        r.answer = -1;
        set_best_layout(r, start, guided.best_partial_moves());
    }
    r.proven = r.answer >= 0;
    r.seconds = since(t0);
    return r;
}

// One colour's all-placed search with a small node budget: answer 1 with the layout (as
// max_placeable reports it), 0 proven short, -1 when the budget ran out first.
ExactResult finish_quickly(const Position& start, int colour, const ExactOptions& options, const std::atomic<bool>* stop) {
    ExactOptions o = options;
    o.node_limit = options.node_limit > 0 ? std::min(options.node_limit, kFinishQuicklyNodes) : kFinishQuicklyNodes;
    ExactSearch s(start, static_cast<std::uint8_t>(1u << colour), ExactSearch::Mode::AllPlaced, o, stop);
    const bool found = s.run();
    ExactResult r;
    r.nodes = s.nodes();
    if (s.aborted()) return r;
    r.answer = found ? 1 : 0;
    r.proven = true;
    r.witness = found ? s.witness() : std::vector<std::pair<int, int>>{};
    r.max_triangles = found ? area_left(start, colour) : -1;  // a "no" says short, not by how much
    return r;
}

ExactResult place_all_stages(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop) {
    const auto t0 = Clock::now();
    ExactResult r;
    if (options.heuristic) {
        // Tight endgames are settled by a short exhaustive search before anything else: at most
        // 20,000 nodes and 1% of the time (nodes cost about 16 us: on the positions that are a
        // "yes" the guided search finds, the whole 20,000 were most of the answer's time).
        ExactOptions quick = options;
        quick.heuristic = false;
        quick.threads = 1;  // (too short to split)
        const bool only_stage = options.node_limit > 0 && options.node_limit <= kQuickNodes;  // it is all there is
        quick.node_limit = only_stage ? options.node_limit : kQuickNodes;
        if (!only_stage) {
            quick.time_limit = std::max(kQuickMinSeconds, (options.time_limit > 0 ? options.time_limit : 10.0) * kQuickShare);
            if (options.time_limit > 0) quick.time_limit = std::min(quick.time_limit, options.time_limit);
        }
        r = place_all_stages(start, quick, stop);
        if (r.answer >= 0 || only_stage) {
            r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            return r;
        }
        // Colour by colour, with max_placeable's branch and bound (it settles one colour far
        // sooner than the all-placed search: 0.3 s against 2 s, or proven against not, on
        // endgames of search-played games). A colour that cannot place everything alone cannot
        // with the others either; witnesses of single colours on disjoint cells combine.
        std::vector<int> cs;
        for (int c = 0; c < kNumColours; ++c)
            if ((options.colours >> c & 1) && start.in_play(c) && start.pieces_left(c)) cs.push_back(c);
        ExactOptions single = options;
        if (single.time_limit > 0)
            single.time_limit = cs.size() == 1 ? std::max(0.01, options.time_limit - since(t0))
                                               : options.time_limit * 0.1;
        Bitboard used;
        bool disjoint = true, all_yes = true;
        std::vector<std::pair<int, int>> joined;
        for (int c : cs) {
            // A colour that can finish usually shows it within a few hundred nodes of the
            // all-placed search (1 ms against max_placeable's 15-20 ms at 12 pieces left).
            ExactResult one = finish_quickly(start, c, single, stop);
            if (one.answer < 0) {
                const long long tried = one.nodes;
                one = max_placeable(start, c, single, stop);
                one.nodes += tried;
            }
            r.nodes += one.nodes;
            const bool full = one.max_triangles == area_left(start, c);
            if (one.proven && !full) {
                r.answer = 0;
                r.proven = true;
                r.seconds = since(t0);
                return r;
            }
            all_yes = all_yes && full;
            for (auto [col, id] : one.witness) {
                disjoint = disjoint && !used.intersects(start.table().cells_mask(id));
                used |= start.table().cells_mask(id);
                joined.push_back({col, id});
            }
        }
        if (all_yes && disjoint) {
            r.answer = 1;
            r.proven = true;
            r.witness = joined;
            r.seconds = since(t0);
            return r;
        }
        if (cs.size() == 1) {  // max_placeable had the whole budget: not proven either way
            r.answer = -1;
            r.proven = false;
            r.seconds = since(t0);
            return r;
        }
    }
    if (options.heuristic && options.threads >= 2) return guided_beside_exhaustive(start, options, stop, t0, r);
    if (options.heuristic) {
        // A "yes" is usually found far sooner by the solo solver's guided search.
        SoloSearch heuristic(start, guided_options(options, options.time_limit > 0 ? options.time_limit * 0.3 : 5.0, 1));
        heuristic.start();
        while (!heuristic.wait_for(0.01))
            if (stop && stop->load()) heuristic.stop();
        heuristic.join();
        auto sols = heuristic.solutions();
        if (!sols.empty()) {
            r.answer = 1;
            r.proven = true;
            r.witness = sols.front().moves;
            r.nodes += heuristic.stats().nodes;
            r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            return r;
        }
        r.nodes += heuristic.stats().nodes;
        set_best_layout(r, start, heuristic.best_partial_moves());
    }
    ExactOptions rest = options;
    if (rest.time_limit > 0)
        rest.time_limit = std::max(0.01, options.time_limit - std::chrono::duration<double>(Clock::now() - t0).count());
    // (Without the guided search, every thread searches exhaustively.)
    Exhaustive e = exhaustive_both_orders(start, rest, stop, options.heuristic ? 1 : std::min(options.threads, 64));
    r.answer = e.answer;
    r.proven = r.answer >= 0;
    if (r.answer == 1) r.witness = std::move(e.witness);
    r.nodes += e.nodes;
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

}  // namespace

ExactResult can_place_all(const Position& start, const ExactOptions& options, const std::atomic<bool>* stop) {
    ExactResult r = place_all_stages(start, options, stop);
    if (r.answer == 1) {
        r.best_layout = r.witness;
        r.best_triangles = 0;
        for (int c = 0; c < kNumColours; ++c)
            if ((options.colours >> c & 1) && start.in_play(c)) r.best_triangles += area_left(start, c);
    }
    return r;
}

ExactResult max_placeable(const Position& start, int colour, const ExactOptions& options,
                          const std::atomic<bool>* stop) {
    const auto t0 = Clock::now();
    auto s = std::make_unique<ExactSearch>(start, static_cast<std::uint8_t>(1u << colour), ExactSearch::Mode::MaxArea,
                                           options, stop);
    ExactResult r;
    s->run();
    r.proven = !s->aborted();
    r.max_triangles = s->best_area();
    r.witness = s->witness();
    r.nodes = s->nodes();
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

}  // namespace trigon::solver
