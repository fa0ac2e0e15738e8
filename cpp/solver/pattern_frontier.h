// Pattern search by the first uncovered cell along a sweep of the region.
#pragma once

#include <bit>

#include "solver/pattern_common.h"

namespace trigon::solver::pattern_detail {

// Exact cover by the first uncovered cell: with the cells numbered along a sweep (see
// number_along_sweep), the lowest uncovered one must be the lowest cell of the next placement. A node costs a few word
// operations per candidate, and the uncovered set is a thin frontier, so equal subproblems
// recur often and counting shares them through the memo.
template <int W>
class FrontierSearch : public SearchState {
    using Mask = BitSet<W>;

public:
    FrontierSearch(const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o, const std::atomic<bool>* stop,
                   PatternResult& res, const std::vector<std::vector<int>>& syms, const RootOrbits& root,
                   SplitShare* share = nullptr, const PatternPoll* poll = nullptr)
        : SearchState(t, lp, o, stop, res, syms, share, poll), root_(root) {
        const int ncells = static_cast<int>(lp.cell_of.size());
        const int np = static_cast<int>(lp.ids.size());
        std::vector<Mask> masks(np);
        std::vector<int> low(np, ncells);
        for (int q = 0; q < np; ++q)
            for (int c : lp.cells[q])
                if (c >= 0) {
                    masks[q].set(c);
                    low[q] = std::min(low[q], c);
                }
        std::vector<int> order(np);
        std::iota(order.begin(), order.end(), 0);
        const auto before = [&](int a, int b) { return low[a] != low[b] ? low[a] < low[b] : lp.piece[a] < lp.piece[b]; };
        // number_along_sweep leaves them in this order already
        if (!std::is_sorted(order.begin(), order.end(), before)) std::stable_sort(order.begin(), order.end(), before);
        start_.assign(ncells + 1, 0);
        for (int q = 0; q < np; ++q) ++start_[low[q] + 1];
        for (int c = 0; c < ncells; ++c) start_[c + 1] += start_[c];
        nb_.resize(ncells);
        const Geometry& geo = t.geo();
        std::vector<std::int16_t> local(geo.num_cells(), -1);
        for (int c = 0; c < ncells; ++c) local[lp.cell_of[c]] = static_cast<std::int16_t>(c);
        for (int c = 0; c < ncells; ++c)
            for (int x : geo.edge_neighbours(lp.cell_of[c]))
                if (local[x] >= 0) nb_[c].set(local[x]);
        for (int p = 0; p < pieces_; ++p) size_of_[p] = trigon_pieces()[lp.piece_of[p]].size;
        auto entry = [&](int q) {
            Mask border;
            masks[q].for_each([&](int c) { border |= nb_[c]; });
            return Entry{masks[q], border - masks[q], q, lp.piece[q]};
        };
        ent_.reserve(np);
        for (int q : order) ent_.push_back(entry(q));
        // Each entry points past the run of its piece at its cell, to skip a used piece at once.
        for (int i = np - 1; i >= 0; --i)
            ent_[i].skip = i + 1 < np && low[order[i + 1]] == low[order[i]] && ent_[i + 1].piece == ent_[i].piece
                               ? ent_[i + 1].skip
                               : i + 1;
        if (root_.piece >= 0)
            for (int q = 0; q < np; ++q)
                if (root_.weight[q]) root_ent_.push_back(entry(q));
    }

    void run() {
        Mask R;
        for (std::size_t i = 0; i < lp_.cell_of.size(); ++i) R.set(static_cast<int>(i));
        res_.nodes = 1;
        long long n = 0;
        if (counting() && !root_ent_.empty()) {
            for (const Entry& e : root_ent_) {
                n += root_.weight[e.q] * child<true>(R, e, sums_left());
                if (done_) break;
            }
        } else if (counting()) {
            n = node<true>(R);
        } else {
            node<false>(R);
        }
        finish(n);
    }

private:
    struct Entry {
        Mask mask;          // cells
        Mask border;        // cells next to it
        int q;              // local placement
        std::uint8_t piece;  // local piece
        int skip = 0;       // first entry of the next piece (or cell)
    };

    // Tries every placement whose lowest cell is R's lowest; returns the solutions when counting.
    template <bool kCount>
    long long node(const Mask& R) {
        int c = 0;
        for (int k = 0; k < W; ++k)
            if (R.w[k]) {
                c = k * 64 + std::countr_zero(R.w[k]);
                break;
            }
        long long total = 0;
        const std::uint64_t sums = sums_left();
        for (int i = start_[c], end = start_[c + 1], next = i; i < end; i = next) {
            const Entry& e = ent_[i];
            if (!left_[e.piece]) {
                next = e.skip;
                continue;
            }
            next = i + 1;
            std::uint64_t outside = 0;
            for (int k = 0; k < W; ++k) outside |= e.mask.w[k] & ~R.w[k];
            if (outside) continue;
            total += child<kCount>(R, e, sums);
            if (done_) return total;
        }
        return total;
    }

    template <bool kCount>
    long long child(const Mask& R, const Entry& e, std::uint64_t sums) {
        if (!mine(depth_ + 1)) return 0;
        const Mask next = R - e.mask;
        if (next.none()) {
            if constexpr (kCount) {
                ++counted_;
                return 1;
            } else {
                record(e.q);
                return 0;
            }
        }
        take(e.piece);
        long long n = 0;
        if (sealed_off(next, e, sums)) {
            give_back(e.piece);
            return 0;
        }
        ++depth_;
        if constexpr (kCount) {
            const bool memo = memo_allowed(depth_);
            if (const long long* m = memo ? memo_.find(next, tag()) : nullptr) {
                n = *m;
                counted_ += n;
            } else if (!tick()) {
                n = node<true>(next);
                if (!done_ && memo) memo_.store(next, tag(), n);
            }
        } else if (!tick()) {
            path_.push_back(lp_.ids[e.q]);
            node<false>(next);
            path_.pop_back();
        }
        --depth_;
        give_back(e.piece);
        return n;
    }

    // True when the placement closed off a small part of `next` that no sum of the pieces left
    // (`sums`) fills exactly (a lone cell first of all); parts are followed up to kFloodLimit cells.
    bool sealed_off(const Mask& next, const Entry& e, std::uint64_t sums) const {
        Mask border = e.border & next, seen;
        for (int k = 0; k < W; ++k) {
            std::uint64_t bits = border.w[k];
            while (bits) {
                const int b = k * 64 + std::countr_zero(bits);
                bits &= bits - 1;
                if (seen.test(b)) continue;
                Mask part, grow;
                part.set(b);
                grow = nb_[b] & next;
                int size = 1;
                while (grow.any() && size <= kFloodLimit) {  // one ring of neighbours a step
                    grow -= part;
                    part |= grow;
                    size = part.count();
                    Mask ring;
                    grow.for_each([&](int y) { ring |= nb_[y]; });
                    grow = ring & next;
                    grow -= part;
                }
                if (grow.none() && size < 64 && !((sums >> size) & 1)) return true;
                seen |= part;
            }
        }
        return false;
    }

    // Bit a: some of the pieces left cover exactly a cells (a < 64). Taken at the parent for all
    // its children: a superset of each child's sums, so the test stays sound.
    std::uint64_t sums_left() const {
        std::uint64_t reach = 1;
        for (int p = 0; p < pieces_; ++p)
            for (int k = 0; k < left_[p] && (k + 1) * size_of_[p] < 64; ++k) reach |= reach << size_of_[p];
        return reach;
    }

    static constexpr int kFloodLimit = 4;  // measured: 2 to 18 differ by a few per cent
    const RootOrbits& root_;
    int depth_ = 0;                 // pieces placed
    std::vector<Mask> nb_;          // edge neighbours
    int size_of_[kNumPieces] = {};  // cells of each local piece
    std::vector<int> start_;        // cell -> first entry whose lowest cell it is
    std::vector<Entry> ent_;        // placements by lowest cell
    std::vector<Entry> root_ent_;   // the root piece's orbit representatives (counting only)
    CountMemo<W> memo_;
};

}  // namespace trigon::solver::pattern_detail
