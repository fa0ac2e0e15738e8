#include "geometry.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace trigon {

namespace {

// Centroid of a triangle in lattice units times 3: integer, and linear maps act on it.
std::pair<int, int> centroid3(const LatticeCell& c) { return {3 * c.a + 1 + c.t, 3 * c.b + 1 + c.t}; }

LatticeCell from_centroid3(int u, int v) {
    int t = (((u % 3) + 3) % 3) == 2 ? 1 : 0;
    return {(u - 1 - t) / 3, (v - 1 - t) / 3, t};
}

int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

LatticeCell transform_cell(const LatticeCell& c, int k) {
    auto [u, v] = centroid3(c);
    if (k >= 6) std::swap(u, v);
    for (int r = 0; r < k % 6; ++r) {
        int nu = -v, nv = u + v;  // rotation by 60 degrees about the origin vertex
        u = nu;
        v = nv;
    }
    return from_centroid3(u, v);
}

Geometry::Geometry(int side) : side_(side), width_(4 * side - 1), height_(2 * side) {
    if (side < 2 || side > 9) throw std::invalid_argument("board side must be 2..9");
    grid_.assign(width_ * height_, -1);
    // Lattice: b = -y; t = 0 (up) when x + y + side - 1 is even; x = 2a + b + t + (side - 1).
    for (int y = 0; y < height_; ++y) {
        int d = std::min(y, 2 * side - 1 - y);
        int m = side - 1 - d;
        for (int x = m; x <= 4 * side - 2 - m; ++x) {
            int cell = static_cast<int>(x_.size());
            x_.push_back(x);
            y_.push_back(y);
            int t = (x + y + side - 1) % 2;
            int b = -y;
            int a = (x - b - t - (side - 1));
            lattice_.push_back({floor_div(a, 2), b, t});
            grid_[y * width_ + x] = cell;
            all_cells_.set(cell);
        }
    }
    const int n = num_cells();
    edge_nb_.resize(n);
    vertex_nb_.resize(n);
    cell_vertices_.resize(n);
    // Vertices of each cell in lattice coordinates, indexed in first-seen order.
    std::map<std::pair<int, int>, int> vertex_index;
    for (int c = 0; c < n; ++c) {
        const auto& L = lattice_[c];
        std::array<std::pair<int, int>, 3> vs =
            L.t == 0 ? std::array<std::pair<int, int>, 3>{{{L.a, L.b}, {L.a + 1, L.b}, {L.a, L.b + 1}}}
                     : std::array<std::pair<int, int>, 3>{{{L.a + 1, L.b}, {L.a, L.b + 1}, {L.a + 1, L.b + 1}}};
        for (int i = 0; i < 3; ++i) {
            auto it = vertex_index.find(vs[i]);
            int id;
            if (it == vertex_index.end()) {
                id = static_cast<int>(vertex_fan_.size());
                vertex_index.emplace(vs[i], id);
                vertex_fan_.emplace_back();
            } else {
                id = it->second;
            }
            cell_vertices_[c][i] = id;
            vertex_fan_[id].push_back(c);
        }
    }
    for (int c = 0; c < n; ++c) {
        int x = x_[c], y = y_[c];
        int vy = is_up(c) ? y + 1 : y - 1;
        for (auto [nx, ny] : {std::pair{x - 1, y}, std::pair{x + 1, y}, std::pair{x, vy}}) {
            int nb = cell_at(nx, ny);
            if (nb >= 0) edge_nb_[c].push_back(nb);
        }
        std::vector<int> around;
        for (int v : cell_vertices_[c])
            for (int o : vertex_fan_[v])
                if (o != c && std::find(edge_nb_[c].begin(), edge_nb_[c].end(), o) == edge_nb_[c].end())
                    around.push_back(o);
        std::sort(around.begin(), around.end());
        around.erase(std::unique(around.begin(), around.end()), around.end());
        vertex_nb_[c] = around;
    }
    // Start cells: the same physical marks on both boards, in ring order.
    static const char* kStart9[] = {"r15", "z12", "z7", "r4", "j7", "j12"};
    static const char* kStart8[] = {"p14", "x11", "x6", "p3", "h6", "h11"};
    for (int i = 0; i < kNumStartCells; ++i) {
        int c = parse_cell(side == 8 ? kStart8[i] : kStart9[i]);
        start_cells_[i] = c;
        if (c >= 0) start_mask_.set(c);
    }
    // Symmetries about the centre vertex: the mean of all centroids, a lattice vertex.
    long su = 0, sv = 0;
    for (int c = 0; c < n; ++c) {
        auto [u, v] = centroid3(lattice_[c]);
        su += u;
        sv += v;
    }
    int cu = static_cast<int>(su / n), cv = static_cast<int>(sv / n);
    for (int k = 0; k < kNumSymmetries; ++k) {
        symmetry_[k].resize(n);
        for (int c = 0; c < n; ++c) {
            auto [u, v] = centroid3(lattice_[c]);
            int du = u - cu, dv = v - cv;
            if (k >= 6) std::swap(du, dv);
            for (int r = 0; r < k % 6; ++r) {
                int nu = -dv, nv = du + dv;
                du = nu;
                dv = nv;
            }
            symmetry_[k][c] = cell_of(from_centroid3(du + cu, dv + cv));
        }
    }
}

int Geometry::cell_at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return -1;
    return grid_[y * width_ + x];
}

int Geometry::cell_of(const LatticeCell& c) const {
    int y = -c.b;
    int x = 2 * c.a + c.b + c.t + (side_ - 1);
    if (y < 0 || y >= height_) return -1;
    int cell = cell_at(x, y);
    if (cell < 0 || !(lattice_[cell] == c)) return -1;
    return cell;
}

std::string Geometry::cell_name(int cell) const {
    std::string s;
    int col = x_[cell];
    if (col >= 26) s += static_cast<char>('a' + col / 26 - 1);
    s += static_cast<char>('a' + col % 26);
    s += std::to_string(height_ - y_[cell]);
    return s;
}

int Geometry::parse_cell(std::string_view text) const {
    std::size_t i = 0;
    int col = -1;
    auto lower = [](char ch) { return (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch; };
    // One or two letters: a..z, then aa, ab, ...
    if (i < text.size() && lower(text[i]) >= 'a' && lower(text[i]) <= 'z') {
        col = lower(text[i]) - 'a';
        ++i;
        if (i < text.size() && lower(text[i]) >= 'a' && lower(text[i]) <= 'z') {
            col = (col + 1) * 26 + (lower(text[i]) - 'a');
            ++i;
        }
    }
    if (col < 0 || i >= text.size() || text.size() - i > 2) return -1;
    if (text[i] == '0') return -1;  // no leading zeros
    int row = 0;
    for (; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return -1;
        row = row * 10 + (text[i] - '0');
    }
    if (row < 1 || row > height_) return -1;
    return cell_at(col, height_ - row);
}

const Geometry& geometry(int side) {
    static const Geometry g9(9);
    static const Geometry g8(8);
    if (side == 9) return g9;
    if (side == 8) return g8;
    throw std::invalid_argument("Trigon boards have side 9 or 8");
}

}  // namespace trigon
