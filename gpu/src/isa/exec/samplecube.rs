//! Seamless cube sampling (Vulkan's "Cube Map Edge Handling"): a tap past a face's edge
//! reads the neighbouring face's texel, found by going back to the cube's 3D lattice; a tap
//! past two edges (a corner) has no texel of its own and is the mean of the three around it.

/// Face axes as `v_cubeid` numbers faces (+X, −X, +Y, −Y, +Z, −Z): the major axis, then the
/// directions `v_cubesc` and `v_cubetc` measure (the spec's "Cube Map Face Selection" table).
const FACES: [[[i64; 3]; 3]; 6] = [
    [[1, 0, 0], [0, 0, -1], [0, -1, 0]],
    [[-1, 0, 0], [0, 0, 1], [0, -1, 0]],
    [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
    [[0, -1, 0], [1, 0, 0], [0, 0, -1]],
    [[0, 0, 1], [1, 0, 0], [0, -1, 0]],
    [[0, 0, -1], [-1, 0, 0], [0, -1, 0]],
];

/// Where a tap lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CubeTap {
    /// One texel: the face and its (i, j).
    Texel(u32, i64, i64),
    /// A corner: the three texels whose mean it is (this face's, then across i, across j).
    Corner([(u32, i64, i64); 3]),
}

fn dot(a: [i64; 3], b: [i64; 3]) -> i64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The texel `(i, j)` of `face` names on a cube of `n`×`n` faces, at most one texel past an
/// edge. The texel centre is the lattice point `n·ma + (2i+1−n)·sc + (2j+1−n)·tc` (face
/// coordinates doubled and scaled by `n`, so exact in integers); across an edge its largest
/// component names the face, and `(sc/|ma| + 1)/2 · n` on that face is the texel, floored.
pub(super) fn cube_tap(face: u32, n: i64, i: i64, j: i64) -> CubeTap {
    let inside = |x: i64| (0..n).contains(&x);
    let (i, j) = (i.clamp(-1, n), j.clamp(-1, n));
    let face = face.min(5);
    match (inside(i), inside(j)) {
        (true, true) => CubeTap::Texel(face, i, j),
        (false, false) => CubeTap::Corner([
            (face, i.clamp(0, n - 1), j.clamp(0, n - 1)),
            across(face, n, i, j.clamp(0, n - 1)),
            across(face, n, i.clamp(0, n - 1), j),
        ]),
        _ => {
            let (f, i, j) = across(face, n, i, j);
            CubeTap::Texel(f, i, j)
        }
    }
}

/// [`cube_tap`] for a texel past exactly one edge.
fn across(face: u32, n: i64, i: i64, j: i64) -> (u32, i64, i64) {
    let [ma, sc, tc] = FACES[face as usize];
    let (s, t) = (2 * i + 1 - n, 2 * j + 1 - n);
    let p: [i64; 3] = std::array::from_fn(|k| n * ma[k] + s * sc[k] + t * tc[k]);
    let k = (0..3).max_by_key(|&k| p[k].abs()).unwrap_or(0);
    let to = 2 * k as u32 + u32::from(p[k] < 0);
    let [_, sc2, tc2] = FACES[to as usize];
    let m = p[k].abs();
    let texel = |c: i64| ((c + m) * n / (2 * m)).clamp(0, n - 1);
    (to, texel(dot(p, sc2)), texel(dot(p, tc2)))
}

#[cfg(test)]
mod tests {
    use super::{cube_tap, CubeTap};

    // The faces meet as a cube's faces do (Vulkan's "Cube Map Face Selection" table: +X
    // has sc = −z, tc = −y; −Z has sc = −x, tc = −y; +Y has sc = x, tc = z): these seams
    // are read off that table by hand.
    #[test]
    fn cube_map_edge_handling_takes_the_neighbouring_face() {
        let n = 4;
        // Past +X's right edge (sc = −z decreasing z): −Z's left column, same row.
        assert_eq!(cube_tap(0, n, 4, 1), CubeTap::Texel(5, 0, 1));
        // Past +X's left edge (z growing): +Z's right column.
        assert_eq!(cube_tap(0, n, -1, 2), CubeTap::Texel(4, 3, 2));
        // Above +Z's top row (tc = −y, so y = +max): +Y's bottom row (tc = z = +max), same x.
        assert_eq!(cube_tap(4, n, 1, -1), CubeTap::Texel(2, 1, 3));
        // Below +Z's bottom row: −Y's top row (tc = −z = −max).
        assert_eq!(cube_tap(4, n, 2, 4), CubeTap::Texel(3, 2, 0));
        // Above +X's top row (y = +max, z = −sc): +Y's right column (x = +max), i read as z.
        assert_eq!(cube_tap(0, n, 0, -1), CubeTap::Texel(2, 3, 3));
        assert_eq!(cube_tap(0, n, 3, -1), CubeTap::Texel(2, 3, 0));
        // Inside stays.
        assert_eq!(cube_tap(3, n, 3, 0), CubeTap::Texel(3, 3, 0));
    }

    #[test]
    fn cube_map_edge_handling_crossing_back_returns_to_the_texel() {
        for n in [1, 2, 3, 4, 7, 16] {
            for face in 0..6 {
                for k in 0..n {
                    for (i, j) in [(-1, k), (n, k), (k, -1), (k, n)] {
                        let CubeTap::Texel(f, i2, j2) = cube_tap(face, n, i, j) else {
                            panic!("edge") // ok: a test's assertion, not driver code
                        };
                        assert_ne!(f, face);
                        // Stepping back out of that face across an edge lands on this
                        // face's edge texel.
                        let home = CubeTap::Texel(face, i.clamp(0, n - 1), j.clamp(0, n - 1));
                        let out = [(-1, j2), (n, j2), (i2, -1), (i2, n)];
                        assert!(
                            out.iter().any(|&(a, b)| cube_tap(f, n, a, b) == home),
                            "face {face} ({i}, {j}) of {n}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn cube_map_edge_handling_corner_is_three_texels() {
        let CubeTap::Corner(t) = cube_tap(0, 4, 4, -1) else {
            panic!("corner") // ok: a test's assertion, not driver code
        };
        // +X's top-right corner touches −Z (right) and +Y (above).
        assert_eq!(t, [(0, 3, 0), (5, 0, 0), (2, 3, 0)]);
    }
}
