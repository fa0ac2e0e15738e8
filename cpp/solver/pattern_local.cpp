#include "solver/pattern_local.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

namespace trigon::solver::pattern_detail {

namespace {

constexpr int kMaxCells = 512;  // a Bitboard's bits: every board's cells

// A cell's ranks along the three sweeps, as one vector (the fourth lane is padding): a
// placement's minima and maxima along all three are then one instruction a cell.
using Ranks = std::int16_t __attribute__((vector_size(8)));

// Lane by lane (a comparison gives all ones in the lanes where it holds).
inline Ranks lane_min(Ranks a, Ranks b) {
    const Ranks less = a < b;
    return (a & less) | (b & ~less);
}
inline Ranks lane_max(Ranks a, Ranks b) {
    const Ranks more = a > b;
    return (a & more) | (b & ~more);
}

// Ranks of the local cells along the lattice's three row directions: b (board rows), a, and a + b,
// the position along a line breaking ties. (Sweeping a direction backwards gives the same spans,
// so three are enough.)
void sweep_ranks(const Geometry& geo, const std::vector<int>& cells, Ranks* rank) {
    const int n = static_cast<int>(cells.size());
    std::vector<std::uint64_t> key(static_cast<std::size_t>(n));
    for (int dir = 0; dir < 3; ++dir) {
        for (int c = 0; c < n; ++c) {
            const LatticeCell& L = geo.lattice(cells[c]);
            const int line = dir == 0 ? L.b : dir == 1 ? L.a : L.a + L.b;
            const int along = dir == 0 ? L.a : dir == 1 ? -L.b : L.b;
            // Each key packs (line, along, up or down, local cell) into one integer (lattice
            // coordinates of a board lie well within +-1024; local cells below 2^10).
            key[c] = ((static_cast<std::uint64_t>(line + 2048) << 13 | static_cast<std::uint64_t>(along + 2048)) << 1 |
                      static_cast<std::uint64_t>(L.t)) << 10 | static_cast<std::uint64_t>(c);
        }
        std::sort(key.begin(), key.end());
        for (int i = 0; i < n; ++i) rank[key[i] & 1023][dir] = static_cast<std::int16_t>(i);
    }
    for (int c = 0; c < n; ++c) rank[c][3] = 0;
}

}  // namespace

int make_local_puzzle(const MoveTable& t, const std::vector<int>& cells, std::vector<int> piece_of,
                      std::vector<int> copies, LocalPuzzle& lp) {
    const Geometry& geo = t.geo();
    const int n = static_cast<int>(cells.size());
    const int pieces = static_cast<int>(piece_of.size());
    std::array<std::int16_t, kMaxCells> local;  // board cell -> local cell (board order), -1 outside
    local.fill(-1);
    for (int c = 0; c < n; ++c) local[static_cast<std::size_t>(cells[c])] = static_cast<std::int16_t>(c);
    std::array<Ranks, kMaxCells> rank;
    sweep_ranks(geo, cells, rank.data());

    // Every placement inside, found from its lowest cell (so once), with its lowest rank along
    // each sweep; the spans (highest rank less lowest) summed per sweep as it goes.
    std::size_t candidates = 0;  // an upper bound on the placements inside, to allocate once
    for (int c : cells)
        for (int p : piece_of) {
            const auto [first, last] = t.anchored(c, p);
            candidates += static_cast<std::size_t>(last - first);
        }
    struct Found {
        std::array<std::int16_t, kMaxPieceSize> cells;  // local (board order), -1 padding
        Ranks low;                                      // lowest rank along each sweep
        std::uint16_t id;
        std::uint8_t piece;
    };
    const std::unique_ptr<Found[]> found(new Found[candidates]);  // (left unset: filled as found)
    std::array<long long, 3> span{};
    Bitboard covered;  // local cells some placement covers
    std::size_t np = 0;
    for (int c : cells)
        for (int k = 0; k < pieces; ++k) {
            const int size = trigon_pieces()[piece_of[k]].size;
            for (auto [id, last] = t.anchored(c, piece_of[k]); id < last; ++id) {
                const Placement& pl = t.placement(id);
                Found& f = found[np];  // (written in place: a copy of an array just written stalls)
                bool inside = true;
                for (int i = 0; i < size && inside; ++i) inside = (f.cells[i] = local[pl.cells[i]]) >= 0;
                if (!inside) continue;
                Ranks lo = rank[static_cast<std::size_t>(f.cells[0])], hi = lo;
                covered.set(f.cells[0]);
                for (int i = 1; i < size; ++i) {
                    const Ranks r = rank[static_cast<std::size_t>(f.cells[i])];
                    lo = lane_min(lo, r);
                    hi = lane_max(hi, r);
                    covered.set(f.cells[i]);
                }
                const Ranks width = hi - lo;
                for (int d = 0; d < 3; ++d) span[d] += width[d];
                for (int i = size; i < kMaxPieceSize; ++i) f.cells[i] = -1;
                f.low = lo;
                f.id = static_cast<std::uint16_t>(id);
                f.piece = static_cast<std::uint8_t>(k);
                ++np;
            }
        }
    // (local cells ascend with board cells: the first one uncovered is the lowest)
    for (int c = 0; c < n; ++c)
        if (!covered.test(c)) return cells[c];

    const int best = span[1] < span[0] ? (span[2] < span[1] ? 2 : 1) : (span[2] < span[0] ? 2 : 0);
    lp.cell_of.resize(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) lp.cell_of[static_cast<std::size_t>(rank[c][best])] = cells[c];
    lp.piece_of = std::move(piece_of);
    lp.copies = std::move(copies);
    // By lowest cell along the sweep, then piece: a counting sort (stable), renumbering the
    // cells as it copies.
    std::vector<int> first(static_cast<std::size_t>(n) * pieces + 1, 0);
    const auto bucket = [&](const Found& f) { return static_cast<std::size_t>(f.low[best]) * pieces + f.piece; };
    for (std::size_t q = 0; q < np; ++q) ++first[bucket(found[q]) + 1];
    for (std::size_t k = 1; k < first.size(); ++k) first[k] += first[k - 1];
    lp.ids.resize(np);
    lp.piece.resize(np);
    lp.cells.resize(np);
    for (std::size_t q = 0; q < np; ++q) {
        const Found& f = found[q];
        const auto to = static_cast<std::size_t>(first[bucket(f)]++);
        lp.ids[to] = f.id;
        lp.piece[to] = f.piece;
        for (int i = 0; i < kMaxPieceSize; ++i) {
            const int c = f.cells[i];
            lp.cells[to][i] = c >= 0 ? rank[static_cast<std::size_t>(c)][best] : std::int16_t{-1};
        }
    }
    return -1;
}

}  // namespace trigon::solver::pattern_detail
