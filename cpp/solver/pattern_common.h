// What the pattern searches share: the puzzle in local numbering, the pieces still to place (with
// an exact key for memoising), the count memo, the stop/time check and the solution recorder.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <vector>

#include "core/tables.h"
#include "solver/pattern.h"

namespace trigon::solver::pattern_detail {

// Solution counts saturate at the largest long long (a tiling of the whole board by lozenges
// has more than 10^21): counts are never negative, so the cap stays put once reached.
constexpr long long kCountCap = std::numeric_limits<long long>::max();
inline long long count_add(long long a, long long b) {
    long long r;
    return __builtin_add_overflow(a, b, &r) ? kCountCap : r;
}
inline long long count_mul(long long a, long long b) {
    long long r;
    return __builtin_mul_overflow(a, b, &r) ? kCountCap : r;
}

using Clock = std::chrono::steady_clock;

// The puzzle in local numbering: region cells 0..n-1 (ascending board order), the pieces in
// use 0..k-1, and every placement inside the region. Shared by the searches of any word count.
struct LocalPuzzle {
    std::vector<int> cell_of;                   // local cell -> board cell
    std::vector<int> piece_of;                  // local piece -> piece index
    std::vector<int> copies;                    // local piece -> copies to place
    std::vector<std::uint16_t> ids;             // local placement -> placement id
    std::vector<std::uint8_t> piece;            // local placement -> local piece
    std::vector<std::array<std::int16_t, kMaxPieceSize>> cells;  // local placement -> local cells (-1 pad)
};

// Counts of solved subproblems: open addressing, keyed by the uncovered cells and the pieces
// left; bounded to 128 MiB (a full neighbourhood just isn't memoised).
template <int W>
class CountMemo {
public:
    const long long* find(const BitSet<W>& R, std::uint64_t tag) {
        if (slots_.empty()) return nullptr;
        const Entry* e = slot(R, tag, hash_of(R, tag));
        return e && e->pieces == tag ? &e->count : nullptr;
    }

    // Starts loading the slot where (R, tag) would be.
    void prefetch(const BitSet<W>& R, std::uint64_t tag) const {
        if (!slots_.empty()) __builtin_prefetch(&slots_[static_cast<std::size_t>(hash_of(R, tag)) & (slots_.size() - 1)]);
    }

    void store(const BitSet<W>& R, std::uint64_t tag, long long count) {
        static constexpr std::size_t kMaxSlots = (std::size_t{128} << 20) / sizeof(Entry);
        if (slots_.empty()) slots_.resize(256);  // small puzzles need few; it grows fourfold
        if (2 * (used_ + 1) > slots_.size() && 4 * slots_.size() <= kMaxSlots) grow();
        if (Entry* s = slot(R, tag, hash_of(R, tag))) {
            if (s->pieces == 0) ++used_;
            for (int k = 0; k < W; ++k) s->cells[k] = R.w[k];
            s->pieces = tag;
            s->count = count;
        }
    }

private:
    struct Entry {
        std::uint64_t cells[W];
        std::uint64_t pieces;  // tag (code + 1); 0: empty slot
        long long count;
    };

    static std::uint64_t hash_of(const BitSet<W>& R, std::uint64_t tag) {
        std::uint64_t h = tag * 0xD6E8FEB86659FD93ull;
        for (int k = 0; k < W; ++k) {
            h = (h ^ R.w[k]) * 0x9E3779B97F4A7C15ull;
            h ^= h >> 32;
        }
        return h;
    }

    // The entry for (R, tag) or the empty slot where it would go, within 8 probes.
    Entry* slot(const BitSet<W>& R, std::uint64_t tag, std::uint64_t h) {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = static_cast<std::size_t>(h) & mask;
        for (int probe = 0; probe < 8; ++probe, i = (i + 1) & mask) {
            Entry& e = slots_[i];
            if (e.pieces == 0) return &e;
            if (e.pieces == tag) {
                bool same = true;
                for (int k = 0; k < W; ++k) same = same && e.cells[k] == R.w[k];
                if (same) return &e;
            }
        }
        return nullptr;
    }

    void grow() {
        std::vector<Entry> old(slots_.size() * 4);
        old.swap(slots_);
        used_ = 0;
        for (const auto& e : old)
            if (e.pieces) {
                BitSet<W> m;
                for (int k = 0; k < W; ++k) m.w[k] = e.cells[k];
                if (Entry* s = slot(m, e.pieces, hash_of(m, e.pieces)); s && s->pieces == 0) {
                    *s = e;
                    ++used_;
                }
            }
    }

    std::vector<Entry> slots_;
    std::size_t used_ = 0;
};

// The placement that a cell map (a symmetry of the region) sends placement `id` to; -1 when the
// image is no placement.
inline int placement_image(const MoveTable& t, int id, const std::vector<int>& map) {
    const Placement& pl = t.placement(id);
    int cells[kMaxPieceSize];
    for (int i = 0; i < pl.size; ++i) cells[i] = map[pl.cells[i]];
    return t.find(cells, pl.size);
}

// Placement ids back to the local placements of a puzzle (-1: none inside the region).
class LocalPlacements {
public:
    explicit LocalPlacements(const LocalPuzzle& lp) {
        for (int q = 0; q < static_cast<int>(lp.ids.size()); ++q) by_id_.emplace_back(lp.ids[q], q);
        std::sort(by_id_.begin(), by_id_.end());
    }
    int of(int id) const {
        const auto it = std::lower_bound(by_id_.begin(), by_id_.end(), std::pair<int, int>{id, -1});
        return id >= 0 && it != by_id_.end() && it->first == id ? it->second : -1;
    }

private:
    std::vector<std::pair<int, int>> by_id_;  // (placement id, local placement), sorted
};

// Counting on several threads: every thread walks the same top of the tree (deterministic, no
// memo there) and searches only the subtrees at `depth` whose tickets it drew, in DFS order.
struct SplitShare {
    int depth = 0;                     // pieces placed at the nodes that are handed out
    std::atomic<long long> next{0};    // next ticket to draw
};

// State every search keeps: copies left per piece with their memo code, the current path, the
// stop/time check, and the recording of solutions (one per symmetry class when unique).
class SearchState {
public:
    SearchState(const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o, const std::atomic<bool>* stop,
                PatternResult& res, const std::vector<std::vector<int>>& syms, SplitShare* share,
                const PatternPoll* poll)
        : t_(t), lp_(lp), opt_(o), stop_(stop), res_(res), syms_(syms), share_(share), poll_(poll && *poll ? poll : nullptr),
          t0_(Clock::now()) {
        if (share_) ticket_ = share_->next.fetch_add(1);
        // Pieces left as a mixed-radix number (exact memo keys) while it fits, else a sum of random keys.
        std::uint64_t radix = 1;
        bool exact = true;
        pieces_ = static_cast<int>(lp.copies.size());
        for (int p = 0; p < pieces_; ++p) {
            left_[p] = lp.copies[p];
            step_[p] = radix;
            const auto base = static_cast<std::uint64_t>(lp.copies[p]) + 1;
            exact = exact && radix <= (std::uint64_t{1} << 62) / base;
            if (exact) radix *= base;
        }
        if (!exact)
            for (int p = 0; p < pieces_; ++p) step_[p] = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(2 * p + 1);
    }

    bool counting() const { return opt_.counting_only(); }

    // Sets the result's count and exactness once the search is over.
    void finish(long long counted) {
        if (counting()) res_.count = aborted_ ? counted_ : counted;
        res_.exhausted = !aborted_ && !(done_ && !opt_.all_solutions);
    }

protected:
    void take(int p) {
        --left_[p];
        code_ += step_[p];
    }
    void give_back(int p) {
        ++left_[p];
        code_ -= step_[p];
    }
    std::uint64_t tag() const { return code_ + 1; }
    std::uint64_t tag_after(int p) const { return code_ + step_[p] + 1; }  // tag() once p is taken

    // For a child node with `depth` pieces placed: may this thread search it, and may it use the
    // memo there? (Threads share the work below the split depth only.)
    bool mine(int depth) {
        if (!share_ || depth != share_->depth) return true;
        const bool take_it = seen_++ == ticket_;
        if (take_it) ticket_ = share_->next.fetch_add(1);
        return take_it;
    }
    bool memo_allowed(int depth) const { return !share_ || depth > share_->depth; }

    // Counts a node; every 4096 checks the stop flag and the clock. True: stop now.
    bool tick() {
        if ((++res_.nodes & 4095) == 0) {
            if (opt_.progress) report_progress();
            if ((stop_ && stop_->load()) ||
                (opt_.time_limit > 0 && std::chrono::duration<double>(Clock::now() - t0_).count() > opt_.time_limit) ||
                (poll_ && !(*poll_)()))
                aborted_ = done_ = true;
            if (opt_.node_limit > 0 && res_.nodes >= opt_.node_limit) res_.node_limited = aborted_ = done_ = true;
        }
        return done_;
    }

    // A complete cover: path_ plus `last` (a local placement).
    void record(int last) {
        path_.push_back(lp_.ids[last]);
        if (opt_.unique) {
            std::vector<std::uint16_t> best;
            for (const auto& map : syms_) {
                std::vector<std::uint16_t> img;
                for (int id : path_) img.push_back(static_cast<std::uint16_t>(placement_image(t_, id, map)));
                std::sort(img.begin(), img.end());
                if (best.empty() || img < best) best = img;
            }
            if (!keys_.insert(best).second) {
                path_.pop_back();
                return;
            }
        }
        ++res_.count;
        if (static_cast<long long>(res_.solutions.size()) < opt_.max_stored) res_.solutions.push_back(path_);
        if ((!opt_.all_solutions && res_.count >= opt_.first) ||
            (opt_.stop_when_stored && static_cast<long long>(res_.solutions.size()) >= opt_.max_stored))
            done_ = true;
        path_.pop_back();
    }

    const MoveTable& t_;
    const LocalPuzzle& lp_;
    const PatternOptions& opt_;
    const std::atomic<bool>* stop_;
    PatternResult& res_;
    const std::vector<std::vector<int>>& syms_;
    int pieces_ = 0;
    int left_[kNumPieces] = {};
    std::vector<int> path_;   // placement ids of the current partial cover
    long long counted_ = 0;   // solutions counted so far (a lower bound when stopped early)
    bool done_ = false, aborted_ = false;

private:
    // Adds this search's nodes and solutions since the last report to the caller's progress.
    void report_progress() {
        opt_.progress->nodes.fetch_add(4096, std::memory_order_relaxed);
        const long long now = counting() ? counted_ : res_.count;
        const long long delta = now - reported_;
        reported_ = now;
        long long seen = opt_.progress->count.load(std::memory_order_relaxed);
        while (delta > 0 &&
               !opt_.progress->count.compare_exchange_weak(seen, count_add(seen, delta), std::memory_order_relaxed)) {
        }
    }

    long long reported_ = 0;           // solutions already in the caller's progress
    SplitShare* share_;
    const PatternPoll* poll_;          // null: none
    long long seen_ = 0, ticket_ = 0;  // split-depth nodes passed; the ticket drawn
    std::uint64_t step_[kNumPieces] = {};
    std::uint64_t code_ = 0;
    std::set<std::vector<std::uint16_t>> keys_;
    Clock::time_point t0_;
};

// Root branching for counting: one placement per orbit of the region's symmetries, weighted by
// the orbit's size (solutions with the piece at x and at g(x) are equinumerous, whatever
// symmetries the solutions themselves have). `weight` is empty when no symmetry saves work.
struct RootOrbits {
    int piece = -1;           // local piece branched on at the root
    std::vector<int> weight;  // local placement -> orbit size if representative, else 0
};

inline RootOrbits root_orbits(const MoveTable& t, const LocalPuzzle& lp, const std::vector<std::vector<int>>& maps) {
    RootOrbits out;
    if (maps.size() < 2) return out;
    const int np = static_cast<int>(lp.ids.size());
    const int pieces = static_cast<int>(lp.copies.size());
    const LocalPlacements local(lp);
    std::vector<int> orbit(np, -1), weight(np, 0), reps(pieces, 0), total(pieces, 0);
    for (int q = 0; q < np; ++q) {
        ++total[lp.piece[q]];
        if (lp.copies[lp.piece[q]] != 1 || orbit[q] >= 0) continue;
        ++reps[lp.piece[q]];
        for (const auto& map : maps) {
            const int r = local.of(placement_image(t, lp.ids[q], map));
            if (r >= 0 && orbit[r] < 0) {
                orbit[r] = q;
                ++weight[q];
            }
        }
    }
    // The piece with the fewest orbits (the root's fewest branches), if the symmetry saves any:
    // measured to matter (on the 6x6 hexiamond rhombus, fewest placements instead costs 4x).
    for (int p = 0; p < pieces; ++p)
        if (reps[p] > 0 && total[p] > reps[p] && (out.piece < 0 || reps[p] < reps[out.piece])) out.piece = p;
    if (out.piece < 0) return out;
    out.weight.assign(np, 0);
    for (int q = 0; q < np; ++q)
        if (lp.piece[q] == out.piece && orbit[q] == q) out.weight[q] = weight[q];
    return out;
}

// The orbit of each local placement under the group that one symmetry of the region (a cell
// map) generates, the placement itself first; empty where no cover that the symmetry fixes can
// hold it: an image outside the region, or images that overlap. (Burnside's lemma: the classes
// of covers are the covers each symmetry fixes, summed over the symmetries, over their number.)
inline std::vector<std::vector<int>> placement_orbits(const MoveTable& t, const LocalPuzzle& lp,
                                                      const std::vector<int>& map) {
    const int np = static_cast<int>(lp.ids.size());
    const LocalPlacements local(lp);
    std::vector<std::vector<int>> orbits(np);
    for (int q = 0; q < np; ++q) {
        std::vector<int> orbit{q};
        std::vector<int> cells;  // local cells of the orbit's placements so far
        for (int c : lp.cells[q])
            if (c >= 0) cells.push_back(c);
        int cur = lp.ids[q];
        bool ok = true, closed = false;
        for (int step = 0; step < kNumSymmetries && ok && !closed; ++step) {  // (a symmetry's order is at most 6)
            cur = placement_image(t, cur, map);
            closed = cur == lp.ids[q];
            if (closed) break;
            const int r = local.of(cur);
            if (r < 0) {
                ok = false;
                break;
            }
            for (int c : lp.cells[r])
                if (c >= 0) {
                    ok = ok && std::find(cells.begin(), cells.end(), c) == cells.end();
                    cells.push_back(c);
                }
            orbit.push_back(r);
        }
        if (ok && closed) orbits[q] = std::move(orbit);
    }
    return orbits;
}

}  // namespace trigon::solver::pattern_detail
