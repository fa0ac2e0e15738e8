#include "tables.h"

#include <algorithm>
#include <stdexcept>

namespace trigon {

namespace {
// Insertion sort for the at most 6 cells of a placement.
void sort_cells(int* c, int n) {
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && c[j - 1] > c[j]; --j) std::swap(c[j - 1], c[j]);
}
}  // namespace

std::uint64_t MoveTable::key(const int* sorted_cells, int n) {
    std::uint64_t k = static_cast<std::uint64_t>(n);
    for (int i = 0; i < n; ++i) k = (k << 9) | static_cast<std::uint64_t>(sorted_cells[i]);
    return k;
}

MoveTable::MoveTable(int side) : geo_(geometry(side)) {
    const auto& pieces = trigon_pieces();
    const int n = geo_.num_cells();
    // Every orientation of every piece, at every translation that keeps it on the board.
    for (int p = 0; p < kNumPieces; ++p) {
        const auto& shape = pieces[p];
        for (int o = 0; o < static_cast<int>(shape.orientations.size()); ++o) {
            const auto& form = shape.orientations[o];
            // Translations: anchor the form's first cell on every board cell of its type.
            for (int anchor = 0; anchor < n; ++anchor) {
                const auto& L = geo_.lattice(anchor);
                if (L.t != form[0].t) continue;
                int da = L.a - form[0].a, db = L.b - form[0].b;
                Placement pl{};
                pl.size = static_cast<std::uint8_t>(form.size());
                pl.piece = static_cast<std::uint8_t>(p);
                pl.orientation = static_cast<std::uint8_t>(o);
                bool on_board = true;
                int cells[kMaxPieceSize];
                for (std::size_t i = 0; i < form.size(); ++i) {
                    int c = geo_.cell_of({form[i].a + da, form[i].b + db, form[i].t});
                    if (c < 0) { on_board = false; break; }
                    cells[i] = c;
                }
                if (!on_board) continue;
                sort_cells(cells, pl.size);
                for (int i = 0; i < pl.size; ++i) pl.cells[i] = static_cast<std::uint16_t>(cells[i]);
                placements_.push_back(pl);
                ++piece_count_[p];
            }
        }
    }
    // Order by lowest cell: placements covering one cell then have nearby ids, so per-cell
    // move sets (covers) span few words.
    std::stable_sort(placements_.begin(), placements_.end(),
                     [](const Placement& p, const Placement& q) { return p.cells[0] < q.cells[0]; });
    const int np = num_placements();
    if (np > kMaxPlacements) throw std::logic_error("too many placements");
    cells_.resize(np);
    adj_.resize(np);
    attach_.resize(np);
    alt_forbid_.resize(np);
    touch_.resize(np);
    side_.resize(np);
    for (int id = 0; id < np; ++id) {
        const auto& pl = placements_[id];
        Bitboard cm, adj, near;
        for (int i = 0; i < pl.size; ++i) cm.set(pl.cells[i]);
        for (int i = 0; i < pl.size; ++i) {
            for (int nb : geo_.edge_neighbours(pl.cells[i])) adj.set(nb);
            for (int nb : geo_.vertex_neighbours(pl.cells[i])) near.set(nb);
        }
        adj -= cm;
        cells_[id] = cm;
        adj_[id] = adj;
        attach_[id] = near - cm - adj;
        Bitboard alt;
        for (int i = 0; i < pl.size; ++i)
            for (int v : geo_.cell_vertices(pl.cells[i])) {
                touch_[id].set(v);
                int covered = 0;
                for (int c : geo_.vertex_fan(v)) covered += cm.test(c);
                if (covered >= 3) {
                    side_[id].set(v);
                    for (int c : geo_.vertex_fan(v)) alt.set(c);
                }
            }
        alt_forbid_[id] = alt - cm;
        int sorted[kMaxPieceSize];
        for (int i = 0; i < pl.size; ++i) sorted[i] = pl.cells[i];
        by_key_.emplace(key(sorted, pl.size), static_cast<std::uint16_t>(id));
    }
    // First id by (lowest cell, piece): the sort above kept the pieces in order within a cell.
    anchored_.assign(static_cast<std::size_t>(n) * kNumPieces + 1, static_cast<std::uint16_t>(np));
    for (int id = np - 1; id >= 0; --id) {
        const std::size_t i = static_cast<std::size_t>(placements_[id].cells[0]) * kNumPieces + placements_[id].piece;
        anchored_[i] = static_cast<std::uint16_t>(id);
    }
    for (std::size_t i = anchored_.size() - 1; i-- > 0;) anchored_[i] = std::min(anchored_[i], anchored_[i + 1]);
    for (int id = 0; id < np; ++id) {  // each range holds exactly its placements
        const auto [first, last] = anchored(placements_[id].cells[0], placements_[id].piece);
        if (id < first || id >= last) throw std::logic_error("placements not ordered by lowest cell and piece");
    }
    // Candidate lists by (cell, forbidden-neighbour status, piece).
    index_.assign(static_cast<std::size_t>(n) * kNumLocalStatus * kNumPieces, {0, 0});
    std::vector<std::vector<std::uint16_t>> by_cell_piece(static_cast<std::size_t>(n) * kNumPieces);
    for (int id = 0; id < np; ++id)
        for (int i = 0; i < placements_[id].size; ++i)
            by_cell_piece[placements_[id].cells[i] * kNumPieces + placements_[id].piece].push_back(
                static_cast<std::uint16_t>(id));
    for (int c = 0; c < n; ++c) {
        const auto& nbs = geo_.edge_neighbours(c);
        for (int st = 0; st < kNumLocalStatus; ++st)
            for (int p = 0; p < kNumPieces; ++p) {
                auto& e = index_[(c * kNumLocalStatus + st) * kNumPieces + p];
                e.first = static_cast<std::uint32_t>(lists_.size());
                for (auto id : by_cell_piece[c * kNumPieces + p]) {
                    bool ok = true;
                    for (std::size_t i = 0; i < nbs.size(); ++i)
                        if ((st >> i & 1) && cells_[id].test(nbs[i])) ok = false;
                    if (ok) lists_.push_back(id);
                }
                e.second = static_cast<std::uint32_t>(lists_.size()) - e.first;
            }
    }
    // Sparse move sets: placements covering each cell, with a side at each vertex, of each piece.
    auto build_sparse = [&](std::vector<SparseSet>& sets, int count, auto&& members) {
        sets.resize(count);
        for (int i = 0; i < count; ++i) {
            std::vector<int> ids = members(i);
            SparseSet& ss = sets[i];
            ss.offset = static_cast<std::uint32_t>(sparse_words_.size());
            if (ids.empty()) { ss.first_word = 0; ss.num_words = 0; continue; }
            int lo = ids.front() >> 6, hi = ids.back() >> 6;
            ss.first_word = static_cast<std::uint16_t>(lo);
            ss.num_words = static_cast<std::uint16_t>(hi - lo + 1);
            sparse_words_.resize(sparse_words_.size() + ss.num_words, 0);
            for (int id : ids) sparse_words_[ss.offset + (id >> 6) - lo] |= std::uint64_t{1} << (id & 63);
        }
    };
    std::vector<std::vector<int>> cover_ids(n), side_ids(geo_.num_vertices());
    for (int id = 0; id < np; ++id) {
        for (int i = 0; i < placements_[id].size; ++i) cover_ids[placements_[id].cells[i]].push_back(id);
        side_[id].for_each([&](int v) { side_ids[v].push_back(id); });
    }
    build_sparse(covers_, n, [&](int c) { return cover_ids[c]; });
    build_sparse(side_covers_, geo_.num_vertices(), [&](int v) { return side_ids[v]; });
    for (int id = 0; id < np; ++id) {
        piece_sets_[placements_[id].piece].set(id);
        all_placements_.set(id);
    }
    for (int k = 0; k < kNumSymmetries; ++k) {
        symmetric_[k].resize(np);
        for (int id = 0; id < np; ++id) {
            const auto& pl = placements_[id];
            int cells[kMaxPieceSize];
            for (int i = 0; i < pl.size; ++i) cells[i] = geo_.symmetric_cell(k, pl.cells[i]);
            int img = find(cells, pl.size);
            if (img < 0) throw std::logic_error("placement table not symmetric");
            symmetric_[k][id] = static_cast<std::uint16_t>(img);
        }
    }
}

const MoveTable& MoveTable::get(int side) {
    if (side == 9) {
        static const MoveTable t9(9);
        return t9;
    }
    if (side == 8) {
        static const MoveTable t8(8);
        return t8;
    }
    throw std::invalid_argument("Trigon boards have side 9 or 8");
}

int MoveTable::find(const int* cells, int n) const {
    if (n < 1 || n > kMaxPieceSize) return -1;
    int sorted[kMaxPieceSize];
    for (int i = 0; i < n; ++i) {
        if (cells[i] < 0 || cells[i] >= geo_.num_cells()) return -1;
        sorted[i] = cells[i];
    }
    sort_cells(sorted, n);
    for (int i = 1; i < n; ++i)
        if (sorted[i] == sorted[i - 1]) return -1;
    auto it = by_key_.find(key(sorted, n));
    return it == by_key_.end() ? -1 : it->second;
}

std::size_t MoveTable::memory_bytes() const {
    std::size_t b = placements_.size() * sizeof(Placement);
    b += (cells_.size() + adj_.size() + attach_.size() + alt_forbid_.size()) * sizeof(Bitboard);
    b += (touch_.size() + side_.size()) * sizeof(VertexSet);
    b += lists_.size() * sizeof(std::uint16_t) + index_.size() * sizeof(index_[0]);
    b += anchored_.size() * sizeof(std::uint16_t);
    b += by_key_.size() * (sizeof(std::uint64_t) + sizeof(std::uint16_t) + 2 * sizeof(void*));
    for (auto& s : symmetric_) b += s.size() * sizeof(std::uint16_t);
    b += sparse_words_.size() * sizeof(std::uint64_t) + (covers_.size() + side_covers_.size()) * sizeof(SparseSet);
    b += sizeof(piece_sets_) + sizeof(all_placements_);
    return b;
}

}  // namespace trigon
