// Pattern search by the first uncovered cell along a sweep of the region.
#pragma once

#include <bit>

#include "solver/pattern_common.h"

namespace trigon::solver::pattern_detail {

// What the frontier search reads and never changes, built once per puzzle and shared by every
// search of it (threads, repeated solves): the placements by lowest cell with their borders.
template <int W>
struct FrontierTables {
    using Mask = BitSet<W>;
    static constexpr int kWords = W;  // (the searches of a puzzle share its tables' width)

    struct Entry {
        Mask mask;           // cells
        Mask border;         // cells next to it
        int q;               // local placement
        std::uint8_t piece;  // local piece
        int skip = 0;        // first entry of the next piece (or cell)
    };

    // `lp` as make_local_puzzle leaves it: placements ordered by lowest cell, then piece.
    FrontierTables(const Geometry& geo, const LocalPuzzle& lp) {
        const int ncells = static_cast<int>(lp.cell_of.size());
        const int np = static_cast<int>(lp.ids.size());
        nb.resize(ncells);
        {
            std::array<std::int16_t, 512> local;  // board cell -> local cell (a Bitboard's 512 bits hold every board)
            local.fill(-1);
            for (int c = 0; c < ncells; ++c) local[static_cast<std::size_t>(lp.cell_of[c])] = static_cast<std::int16_t>(c);
            for (int c = 0; c < ncells; ++c)
                for (int x : geo.edge_neighbours(lp.cell_of[c]))
                    if (local[static_cast<std::size_t>(x)] >= 0) nb[c].set(local[static_cast<std::size_t>(x)]);
        }
        for (std::size_t p = 0; p < lp.piece_of.size(); ++p) size_of[p] = trigon_pieces()[lp.piece_of[p]].size;
        start.assign(ncells + 1, 0);
        ent.resize(np);
        std::vector<int> low(np);
        for (int q = 0; q < np; ++q) {
            Mask mask, border;
            low[q] = ncells;
            for (int c : lp.cells[q])
                if (c >= 0) {
                    mask.set(c);
                    border |= nb[c];
                    low[q] = std::min(low[q], c);
                }
            ++start[low[q] + 1];
            ent[q] = Entry{mask, border - mask, q, lp.piece[q]};
        }
        for (int c = 0; c < ncells; ++c) start[c + 1] += start[c];
        // Each entry points past the run of its piece at its cell, to skip a used piece at once.
        for (int i = np - 1; i >= 0; --i)
            ent[i].skip = i + 1 < np && low[i + 1] == low[i] && ent[i + 1].piece == ent[i].piece ? ent[i + 1].skip : i + 1;
    }

    std::vector<Mask> nb;           // edge neighbours
    int size_of[kNumPieces] = {};   // cells of each local piece
    std::vector<int> start;         // cell -> first entry whose lowest cell it is
    std::vector<Entry> ent;         // placements by lowest cell (entry q is local placement q)
};

// Exact cover by the first uncovered cell: with the cells numbered along a sweep (see
// make_local_puzzle), the lowest uncovered one must be the lowest cell of the next placement. A node costs a few word
// operations per candidate, and the uncovered set is a thin frontier, so equal subproblems
// recur often and counting shares them through the memo.
template <int W>
class FrontierSearch : public SearchState {
    using Mask = BitSet<W>;
    using Entry = typename FrontierTables<W>::Entry;

public:
    FrontierSearch(const FrontierTables<W>& tab, const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o,
                   const std::atomic<bool>* stop, PatternResult& res, const std::vector<std::vector<int>>& syms,
                   const RootOrbits& root, SplitShare* share = nullptr, const PatternPoll* poll = nullptr)
        : SearchState(t, lp, o, stop, res, syms, share, poll), root_(root), tab_(tab) {
        if (root_.piece >= 0)
            for (std::size_t q = 0; q < root_.weight.size(); ++q)
                if (root_.weight[q]) root_ent_.push_back(tab_.ent[q]);
    }

    void run() {
        Mask R;
        for (std::size_t i = 0; i < lp_.cell_of.size(); ++i) R.set(static_cast<int>(i));
        res_.nodes = 1;
        long long n = 0;
        if (counting() && !root_ent_.empty()) {
            for (const Entry& e : root_ent_) {
                n = count_add(n, count_mul(root_.weight[e.q], child<true>(R, e, sums_left())));
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
        // The placements that fit first, with their children's memo slots loading meanwhile
        // (the probes miss the cache; started together, their waits overlap).
        int fits[kMaxFits];
        int nfit = 0;
        for (int i = tab_.start[c], end = tab_.start[c + 1], next = i; i < end; i = next) {
            const Entry& e = tab_.ent[i];
            if (!left_[e.piece]) {
                next = e.skip;
                continue;
            }
            next = i + 1;
            std::uint64_t outside = 0;
            for (int k = 0; k < W; ++k) outside |= e.mask.w[k] & ~R.w[k];
            if (outside) continue;
            if (nfit == kMaxFits) {  // more than the buffer holds: the rest without prefetching
                total = count_add(total, child<kCount>(R, e, sums));
                if (done_) return total;
                continue;
            }
            fits[nfit++] = i;
            if constexpr (kCount)
                if (memo_allowed(depth_ + 1)) memo_.prefetch(R - e.mask, tag_after(e.piece));
        }
        for (int k = 0; k < nfit; ++k) {
            total = count_add(total, child<kCount>(R, tab_.ent[fits[k]], sums));
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
                counted_ = count_add(counted_, n);
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
                grow = tab_.nb[b] & next;
                int size = 1;
                while (grow.any() && size <= kFloodLimit) {  // one ring of neighbours a step
                    grow -= part;
                    part |= grow;
                    size = part.count();
                    Mask ring;
                    grow.for_each([&](int y) { ring |= tab_.nb[y]; });
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
            for (int k = 0; k < left_[p] && (k + 1) * tab_.size_of[p] < 64; ++k) reach |= reach << tab_.size_of[p];
        return reach;
    }

    static constexpr int kMaxFits = 64;
    static constexpr int kFloodLimit = 4;  // measured: 2 to 18 differ by a few per cent
    const RootOrbits& root_;
    const FrontierTables<W>& tab_;
    int depth_ = 0;                 // pieces placed
    std::vector<Entry> root_ent_;   // the root piece's orbit representatives (counting only)
    CountMemo<W> memo_;
};

}  // namespace trigon::solver::pattern_detail
