"""One-off: canonical keys (as cpp/core/pieces.cpp computes them) of Pentobi's Trigon shapes.

Pentobi's piece coordinates (libpentobi_base/BoardConst.cpp, create_pieces_trigon) use
(x, y) with (0, 0) an up triangle and y growing downwards. Only the name<->shape mapping
is taken from there; the engine generates the shapes itself.
"""
PENTOBI = {
    "I6": [(1,-1),(2,-1),(0,0),(1,0),(-1,1),(0,1)],
    "L6": [(1,-1),(2,-1),(0,0),(1,0),(0,1),(1,1)],
    "V": [(-2,-1),(-1,-1),(-1,0),(0,0),(1,0),(2,0)],
    "S": [(-1,-1),(0,-1),(-1,0),(0,0),(-1,1),(0,1)],
    "P6": [(1,-1),(0,0),(1,0),(2,0),(-1,1),(0,1)],
    "F": [(0,0),(1,0),(0,1),(1,1),(2,1),(1,2)],
    "W": [(1,-1),(-1,0),(0,0),(1,0),(2,0),(3,0)],
    "A6": [(1,-1),(0,0),(1,0),(2,0),(0,1),(2,1)],
    "G": [(1,-1),(0,0),(1,0),(0,1),(1,1),(2,1)],
    "Y": [(-1,-1),(-1,0),(0,0),(1,0),(-1,1),(0,1)],
    "X": [(-1,0),(0,0),(1,0),(-1,1),(0,1),(1,1)],
    "O": [(-1,-1),(0,-1),(1,-1),(-1,0),(0,0),(1,0)],
    "I5": [(1,-1),(0,0),(1,0),(-1,1),(0,1)],
    "L5": [(1,-1),(0,0),(1,0),(0,1),(1,1)],
    "C5": [(0,0),(1,0),(0,1),(1,1),(2,1)],
    "P5": [(1,-1),(0,0),(1,0),(2,0),(0,1)],
    "I4": [(0,0),(1,0),(-1,1),(0,1)],
    "C4": [(0,0),(1,0),(0,1),(1,1)],
    "A4": [(1,-1),(0,0),(1,0),(2,0)],
    "I3": [(1,-1),(0,0),(1,0)],
    "2": [(0,0),(1,0)],
    "1": [(0,0)],
}

def lattice(x, y):
    t = (x + y) % 2
    b = -y
    return ((x - b - t) // 2, b, t)

def transform(c, k):
    a, b, t = c
    u, v = 3*a+1+t, 3*b+1+t
    if k >= 6: u, v = v, u
    for _ in range(k % 6): u, v = -v, u + v
    t = 1 if u % 3 == 2 else 0
    return ((u-1-t)//3, (v-1-t)//3, t)

def normalised(s):
    ma = min(c[0] for c in s); mb = min(c[1] for c in s)
    return sorted((a-ma, b-mb, t) for a, b, t in s)

def key(cells):
    best = min(normalised([transform(c, k) for c in cells]) for k in range(12))
    return "".join(f"{a},{b},{t};" for a, b, t in best)

if __name__ == "__main__":
    for name, pts in PENTOBI.items():
        print(f'        {{"{key([lattice(x, y) for x, y in pts])}", "{name}"}},')
