// Pattern search by the most constrained item (Knuth's MRV rule), for regions where no sweep
// order keeps the uncovered set thin.
#pragma once

#include <bit>

#include "solver/pattern_common.h"

namespace trigon::solver::pattern_detail {

// Exact cover search in the manner of dancing links, on bit sets: each depth holds the set of
// placements still possible, and a node counts the options of every uncovered cell and every
// piece left by popcounts over the few words where they lie, so it prunes on a dead item at once
// and branches on the item with the fewest options. Nothing is undone on the way back.
// With `orbits` (placement_orbits of a symmetry) it counts the covers made of whole orbits: the
// covers that symmetry fixes (counting only).
template <int W>
class MrvSearch : public SearchState {
    using Mask = BitSet<W>;

public:
    MrvSearch(const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o, const std::atomic<bool>* stop,
              PatternResult& res, const std::vector<std::vector<int>>& syms, const RootOrbits& root,
              SplitShare* share = nullptr, const PatternPoll* poll = nullptr,
              const std::vector<std::vector<int>>* orbits = nullptr)
        : SearchState(t, lp, o, stop, res, syms, share, poll), root_(root), orbits_(orbits) {
        np_ = static_cast<int>(lp.ids.size());
        pw_ = (np_ + 63) / 64;
        const int ncells = static_cast<int>(lp.cell_of.size());
        masks_.resize(np_);
        cover_lo_.assign(ncells, pw_);
        cover_hi_.assign(ncells, 0);
        for (int q = 0; q < np_; ++q)
            for (int c : lp.cells[q])
                if (c >= 0) {
                    masks_[q].set(c);
                    cover_lo_[c] = std::min(cover_lo_[c], q >> 6);
                    cover_hi_[c] = std::max(cover_hi_[c], (q >> 6) + 1);
                }
        // Placements covering a cell, as bits over the few words where they lie (placements are
        // numbered by first cell, so those of one cell are close together).
        cover_off_.resize(ncells);
        std::size_t total = 0;
        for (int c = 0; c < ncells; ++c) {
            cover_off_[c] = total;
            total += static_cast<std::size_t>(std::max(0, cover_hi_[c] - cover_lo_[c]));
        }
        cover_words_.assign(total, 0);
        piece_words_.assign(static_cast<std::size_t>(pieces_) * pw_, 0);
        piece_lo_.assign(pieces_, pw_);
        piece_hi_.assign(pieces_, 0);
        for (int q = 0; q < np_; ++q) {
            for (int c : lp.cells[q])
                if (c >= 0) cover_words_[cover_off_[c] + (q >> 6) - cover_lo_[c]] |= std::uint64_t{1} << (q & 63);
            const int p = lp.piece[q];
            piece_words_[static_cast<std::size_t>(p) * pw_ + (q >> 6)] |= std::uint64_t{1} << (q & 63);
            piece_lo_[p] = std::min(piece_lo_[p], q >> 6);
            piece_hi_[p] = std::max(piece_hi_[p], (q >> 6) + 1);
        }
        int levels = 1;
        for (int p = 0; p < pieces_; ++p) levels += lp.copies[p];
        live_.assign(static_cast<std::size_t>(levels) * pw_, 0);
        for (int q = 0; q < np_; ++q)
            if (!orbits_ || !(*orbits_)[q].empty()) live_[q >> 6] |= std::uint64_t{1} << (q & 63);
    }

    void run() {
        Mask R;
        for (std::size_t i = 0; i < lp_.cell_of.size(); ++i) R.set(static_cast<int>(i));
        res_.nodes = 1;
        long long n = 0;
        if (counting())
            n = node<true>(R, 0);
        else
            node<false>(R, 0);
        finish(n);
    }

private:
    // Live placements of cell c (or of piece p) under `live`.
    int cell_options(const std::uint64_t* live, int c) const {
        const std::uint64_t* cw = &cover_words_[cover_off_[c]] - cover_lo_[c];
        int n = 0;
        for (int w = cover_lo_[c]; w < cover_hi_[c]; ++w) n += std::popcount(live[w] & cw[w]);
        return n;
    }
    int piece_options(const std::uint64_t* live, int p) const {
        const std::uint64_t* pw = &piece_words_[static_cast<std::size_t>(p) * pw_];
        int n = 0;
        for (int w = piece_lo_[p]; w < piece_hi_[p]; ++w) n += std::popcount(live[w] & pw[w]);
        return n;
    }

    // Searches the node at `depth` (its possible placements: live_ at that level) with R uncovered;
    // in counting mode returns the number of solutions below it.
    template <bool kCount>
    long long node(const Mask& R, int depth) {
        const std::uint64_t* live = &live_[static_cast<std::size_t>(depth) * pw_];
        // A cell nobody covers, or a piece with fewer placements than copies to place: dead end.
        int cell = -1, cell_n = 1 << 30;
        for (int k = 0; k < W && cell_n > 1; ++k) {
            std::uint64_t bits = R.w[k];
            while (bits) {
                const int c = k * 64 + std::countr_zero(bits);
                bits &= bits - 1;
                const int n = cell_options(live, c);
                if (n < cell_n) {
                    cell_n = n;
                    cell = c;
                    if (n <= 1) break;
                }
            }
        }
        if (cell_n == 0) return 0;
        int best_piece = -1, best_piece_n = 1 << 30;
        for (int p = 0; p < pieces_; ++p) {
            if (left_[p] == 0) continue;
            const int n = piece_options(live, p);
            if (n < left_[p]) return 0;
            if (left_[p] == 1 && n < best_piece_n) {
                best_piece_n = n;
                best_piece = p;
            }
        }
        const std::uint64_t* src;
        int lo, hi;
        const int* weight = nullptr;
        if (kCount && depth == 0 && root_.piece >= 0)
            best_piece = root_.piece, best_piece_n = 0, weight = root_.weight.data();
        if (best_piece >= 0 && best_piece_n < cell_n) {
            src = &piece_words_[static_cast<std::size_t>(best_piece) * pw_];
            lo = piece_lo_[best_piece], hi = piece_hi_[best_piece];
        } else {
            src = &cover_words_[cover_off_[cell]] - cover_lo_[cell];
            lo = cover_lo_[cell], hi = cover_hi_[cell];
        }
        long long total = 0;
        for (int w = lo; w < hi; ++w) {
            std::uint64_t bits = live[w] & src[w];
            while (bits) {
                const int o = w * 64 + std::countr_zero(bits);
                bits &= bits - 1;
                if (weight) {
                    if (weight[o]) total = count_add(total, count_mul(weight[o], child<kCount>(R, depth, o)));
                } else {
                    total = count_add(total, child<kCount>(R, depth, o));
                }
                if (done_) return total;
            }
        }
        return total;
    }

    // Places o below the node at `depth`: the child's live set drops every placement meeting o's
    // cells (and the piece's other placements with its last copy).
    template <bool kCount>
    long long child(const Mask& R, int depth, int o) {
        if (!mine(depth + 1)) return 0;
        const int op = lp_.piece[o];
        // The placement, or its whole orbit (its images' cells are uncovered too: R is symmetric).
        const std::vector<int>* orbit = orbits_ ? &(*orbits_)[o] : nullptr;
        const int copies = orbit ? static_cast<int>(orbit->size()) : 1;
        if (copies > left_[op]) return 0;
        Mask covered = masks_[o];
        if (orbit)
            for (int q : *orbit) covered |= masks_[q];
        const Mask next = R - covered;
        if (next.none()) {
            if constexpr (kCount) {
                ++counted_;
                return 1;
            } else {
                record(o);
                return 0;
            }
        }
        for (int k = 0; k < copies; ++k) take(op);
        long long n = 0;
        const bool memo = kCount && memo_allowed(depth + 1);
        if constexpr (kCount) {
            if (const long long* m = memo ? memo_.find(next, tag()) : nullptr) {
                n = *m;
                counted_ = count_add(counted_, n);
                for (int k = 0; k < copies; ++k) give_back(op);
                return n;
            }
        }
        if (!tick()) {
            const std::size_t off = static_cast<std::size_t>(depth) * pw_;
            const std::uint64_t* live = &live_[off];
            std::uint64_t* nl = &live_[off + pw_];
            for (int w = 0; w < pw_; ++w) nl[w] = live[w];
            if (left_[op] == 0) {  // its last copy: every other placement of the piece goes too
                const std::uint64_t* ps = &piece_words_[static_cast<std::size_t>(op) * pw_];
                for (int w = piece_lo_[op]; w < piece_hi_[op]; ++w) nl[w] &= ~ps[w];
            }
            covered.for_each([&](int c) {
                const std::uint64_t* cw = &cover_words_[cover_off_[c]] - cover_lo_[c];
                for (int w = cover_lo_[c]; w < cover_hi_[c]; ++w) nl[w] &= ~cw[w];
            });
            if constexpr (kCount) {
                n = node<true>(next, depth + 1);
                if (!done_ && memo) memo_.store(next, tag(), n);
            } else {
                path_.push_back(lp_.ids[o]);
                node<false>(next, depth + 1);
                path_.pop_back();
            }
        }
        for (int k = 0; k < copies; ++k) give_back(op);
        return n;
    }

    const RootOrbits& root_;
    const std::vector<std::vector<int>>* orbits_;  // null: single placements
    int np_ = 0, pw_ = 0;
    std::vector<Mask> masks_;
    std::vector<int> cover_lo_, cover_hi_;  // word range of the placements covering a cell
    std::vector<std::size_t> cover_off_;
    std::vector<std::uint64_t> cover_words_, piece_words_;
    std::vector<int> piece_lo_, piece_hi_;  // word range of a piece's placements
    std::vector<std::uint64_t> live_;       // per depth: placements still possible
    CountMemo<W> memo_;
};

}  // namespace trigon::solver::pattern_detail
