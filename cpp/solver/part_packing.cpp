#include "solver/part_packing.h"

#include <algorithm>
#include <bit>

namespace trigon::solver::exact_detail {

PartPacker::PartPacker(const MoveTable& t) : t_(t) {
    for (int p = 0; p < kNumPieces; ++p) {
        size_[p] = trigon_pieces()[p].size;
        for (int v = size_[p]; v <= kSmallPart; ++v) no_bigger_[v] |= 1u << p;
    }
    local_bit_.assign(t_.geo().num_cells(), -1);
    for (int pass = 0; pass < kPackPasses; ++pass)
        for (int v = 1, best = 0; v <= kSmallPart; ++v) {
            bool sum = false;
            for (int s = kPassMinSize[pass]; s <= std::min(v, kMaxPieceSize) && !sum; ++s) sum = most_sum_[pass][v - s] == v - s;
            most_sum_[pass][v] = best = sum ? v : best;
        }
}

PartCovers PartPacker::pack_part(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches) {
    // The part's cells become bits 0..n-1 in board order, so a placement's lowest cell is its
    // lowest bit; its placements inside the part (and the colours that may use each) are listed
    // once by that bit, and the packings run on 32-bit masks.
    int cells[kSmallPart];
    int k = 0;
    part.for_each([&](int x) {
        local_bit_[x] = static_cast<std::int8_t>(k);
        cells[k++] = x;
    });
    std::uint32_t reach_bits[kNumColours] = {};
    for (int c = 0; c < kNumColours; ++c)
        for (int i = 0; i < n; ++i) reach_bits[c] |= static_cast<std::uint32_t>(reaches[c].test(cells[i])) << i;
    std::uint8_t holders[kNumPieces] = {};  // per piece: the colours that have it left
    for (int p = 0; p < kNumPieces; ++p)
        for (int c = 0; c < kNumColours; ++c) holders[p] |= static_cast<std::uint8_t>((P.pieces_left(c) >> p & 1) << c);
    packs_.clear();
    for (int i = 0; i < n; ++i) {
        pack_first_[i] = static_cast<int>(packs_.size());
        std::uint8_t reached = 0;  // the colours reaching this cell
        for (int c = 0; c < kNumColours; ++c) reached |= static_cast<std::uint8_t>((reach_bits[c] >> i & 1) << c);
        if (!reached) continue;
        for (int p = 0; p < kNumPieces; ++p) {
            const std::uint8_t may = holders[p] & reached;  // the colours that may place it here
            if (size_[p] > n || !may) continue;
            const auto [first, last] = t_.anchored(cells[i], p);
            for (int id = first; id < last; ++id) {
                const Placement& pl = t_.placement(id);
                std::uint32_t m = 0;
                int j = 0;
                for (; j < pl.size; ++j) {
                    const int b = local_bit_[pl.cells[j]];
                    if (b < 0) break;
                    m |= 1u << b;
                }
                if (j < pl.size) continue;  // not inside the part
                std::uint8_t colours = 0;
                for (int c = 0; c < kNumColours; ++c) colours |= static_cast<std::uint8_t>(((may >> c & 1) && !(m & ~reach_bits[c])) << c);
                if (!colours) continue;
                std::uint32_t adj = 0;  // the part's cells at an edge of it
                for (j = 0; j < pl.size; ++j)
                    for (const int y : t_.geo().edge_neighbours(pl.cells[j]))
                        if (local_bit_[y] >= 0) adj |= 1u << local_bit_[y];
                packs_.push_back({m, adj & ~m, static_cast<std::uint8_t>(p), colours});
            }
        }
    }
    pack_first_[n] = static_cast<int>(packs_.size());
    part.for_each([&](int x) { local_bit_[x] = -1; });

    PartCovers out;
    const std::uint32_t full = (1u << n) - 1;
    int cap = n;  // a pass with bigger pieces covers no more than the one before
    std::int16_t* covers[kPackPasses] = {&out.all, &out.big, &out.five, &out.six};
    for (pass_ = 0; pass_ < kPackPasses; ++pass_) {
        best_cover_ = 0;
        cap = most_sum_[pass_][cap];
        std::uint32_t usable = 0;  // cells some placement of this pass covers: the others start skipped
        for (const LocalPlacement& lp : packs_)
            if (size_[lp.piece] >= kPassMinSize[pass_]) usable |= lp.cells;
        if (usable && kPassMinSize[pass_] <= cap) {
            std::array<std::uint32_t, kNumColours> used{}, own{};
            cover_part(full & ~usable, full, 0, cap, used, own);
        }
        cap = best_cover_;
        *covers[pass_] = static_cast<std::int16_t>(best_cover_);
    }
    return out;
}

void PartPacker::cover_part(std::uint32_t done, std::uint32_t full, int covered, int cap,
                             std::array<std::uint32_t, kNumColours>& used, std::array<std::uint32_t, kNumColours>& own) {
    best_cover_ = std::max(best_cover_, covered);
    const std::uint32_t open = full & ~done;
    if (!open || best_cover_ == cap || covered + most_sum_[pass_][std::popcount(open)] <= best_cover_) return;
    const int x = std::countr_zero(open);
    for (int i = pack_first_[x]; i < pack_first_[x + 1]; ++i) {
        const LocalPlacement& lp = packs_[i];
        const int p = lp.piece;
        if ((lp.cells & done) || size_[p] < kPassMinSize[pass_]) continue;
        for (std::uint32_t cs = lp.colours; cs; cs &= cs - 1) {
            const int c = std::countr_zero(cs);
            if ((used[c] >> p & 1) || (lp.adj & own[c])) continue;
            used[c] |= 1u << p;
            own[c] |= lp.cells;
            cover_part(done | lp.cells, full, covered + size_[p], cap, used, own);
            own[c] &= ~lp.cells;
            used[c] &= ~(1u << p);
            if (best_cover_ == cap) return;
        }
    }
    cover_part(done | (1u << x), full, covered, cap, used, own);
}

}  // namespace trigon::solver::exact_detail
