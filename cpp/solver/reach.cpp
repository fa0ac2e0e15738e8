#include "solver/reach.h"

#include <bit>
#include <iterator>

namespace trigon::solver {

std::vector<Bitboard> touch_masks(const Geometry& geo) {
    std::vector<Bitboard> touch(geo.num_cells());
    for (int c = 0; c < geo.num_cells(); ++c) {
        for (int x : geo.edge_neighbours(c)) touch[c].set(x);
        for (int x : geo.vertex_neighbours(c)) touch[c].set(x);
    }
    return touch;
}

Bitboard reach_of(const Position& P, int c, const Bitboard& fr, int area, const std::vector<Bitboard>& touch) {
    Bitboard reach = P.seed_cells(c) & fr;
    Bitboard ring = reach;  // the cells one step further than the ring before
    for (int step = 1; step < area && ring.any(); ++step) {
        Bitboard next;
        ring.for_each([&](int x) { next |= touch[x]; });
        ring = (next & fr) - reach;
        reach |= ring;
    }
    return reach;
}

std::uint16_t fit_inside(const MoveTable& t, const Bitboard& reach, int piece) {
    for (int k = 0; k < static_cast<int>(std::size(reach.w)); ++k)
        for (std::uint64_t bits = reach.w[k]; bits; bits &= bits - 1) {
            const auto [first, last] = t.anchored(k * 64 + std::countr_zero(bits), piece);
            for (int id = first; id < last; ++id)
                if ((t.cells_mask(id) - reach).none()) return static_cast<std::uint16_t>(id);
        }
    return kNoFit;
}

}  // namespace trigon::solver
