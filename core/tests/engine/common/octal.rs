//! Octal games by their definition, written apart from the kernel: shared by the tests and
//! the benchmark (which includes this file by path).

/// Values of the octal code 0.d₁d₂d₃ by its definition: every option of every pile, and the
/// mex. Digit bit 1: take t leaving nothing; bit 2: leaving one heap; bit 4: leaving two.
pub fn octal_by_definition(digits: [u8; 3], upto: usize) -> Vec<u16> {
    let mut g = vec![0u16; upto + 1];
    let mut seen = vec![0usize; 1 << 16];
    for n in 1..=upto {
        for (i, &d) in digits.iter().enumerate() {
            let t = i + 1;
            if t > n {
                break;
            }
            let rest = n - t;
            if d & 1 != 0 && rest == 0 {
                seen[0] = n;
            }
            if d & 2 != 0 && rest > 0 {
                seen[g[rest] as usize] = n;
            }
            if d & 4 != 0 && rest >= 2 {
                for a in 1..=rest / 2 {
                    seen[(g[a] ^ g[rest - a]) as usize] = n;
                }
            }
        }
        g[n] = (0..).find(|&v| seen[v] != n).unwrap_or(0) as u16;
    }
    g
}
