//! The baseline of `benches/tables.py`: a plain buffered loop writing a one-pile table's rows,
//! the bytes `takeaway table --format csv|json` writes, from values it computes itself (the
//! definition for the first 4,096 piles, then the period they show). Built with `rustc -O`, no
//! crates: what a program written for this one table would do.
//!
//!     plain_table kayles|tag UPTO csv|json [FRAME]
//!
//! FRAME (JSON only) holds the text around the three lists, as four pieces separated by NUL
//! bytes: before the outcomes, between outcomes and values, between values and P-positions,
//! after them.

use std::io::{BufWriter, Write};

/// Piles computed by the definition; the period is looked for in their second half.
const DEFINED: usize = 4096;

fn mex(seen: &[bool]) -> u64 {
    seen.iter().position(|s| !s).unwrap_or(seen.len()) as u64
}

fn values(game: &str) -> Vec<u64> {
    let mut g = vec![0u64; DEFINED];
    for n in 1..DEFINED {
        let mut seen = vec![false; 2 * DEFINED];
        match game {
            // remove one or two adjacent pins, leaving the rest in one or two rows
            "kayles" => {
                for take in 1..=2.min(n) {
                    for left in 0..=(n - take) {
                        seen[(g[left] ^ g[n - take - left]) as usize] = true;
                    }
                }
            }
            // take 1, 2 or 3
            "tag" => {
                for take in 1..=3.min(n) {
                    seen[g[n - take] as usize] = true;
                }
            }
            other => panic!("no game {other}"),
        }
        g[n] = mex(&seen);
    }
    g
}

/// The smallest period of the second half of the values, and where it starts.
fn period(g: &[u64]) -> (usize, usize) {
    let half = g.len() / 2;
    let p = (1..half / 2).find(|&p| (half..g.len()).all(|n| g[n] == g[n - p])).expect("a period");
    let mut start = half;
    while start > p && g[start - 1] == g[start - 1 - p] {
        start -= 1;
    }
    (start - p, p)
}

fn put(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args[1].as_str();
    let upto: u64 = args[2].parse().expect("UPTO");
    let g = values(game);
    let (pre, p) = period(&g);
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut buf = Vec::with_capacity(1 << 17);
    // Calls `row(n, value)` for every pile, following the period with a phase.
    let each = |row: &mut dyn FnMut(u64, u64)| {
        let mut phase = 0;
        for n in 0..=upto {
            let v = if (n as usize) < pre + p {
                g[n as usize]
            } else {
                if phase == 0 || phase == pre + p {
                    phase = pre + ((n as usize - pre) % p);
                }
                let v = g[phase];
                phase += 1;
                v
            };
            row(n, v);
        }
    };
    let flush = |buf: &mut Vec<u8>, out: &mut BufWriter<_>| {
        if buf.len() >= 1 << 16 {
            out.write_all(buf).expect("written");
            buf.clear();
        }
    };
    if args[3] == "csv" {
        buf.extend_from_slice(b"n,outcome,grundy\n");
        each(&mut |n, v| {
            put(&mut buf, n);
            buf.extend_from_slice(if v == 0 { b",P," } else { b",N," });
            put(&mut buf, v);
            buf.push(b'\n');
            flush(&mut buf, &mut out);
        });
    } else {
        let frame = std::fs::read(&args[4]).expect("FRAME");
        let pieces: Vec<&[u8]> = frame.split(|&b| b == 0).collect();
        for list in 0..3 {
            buf.extend_from_slice(pieces[list]);
            let mut first = true;
            each(&mut |n, v| {
                let start: &[u8] = if first { b"[\n    " } else { b",\n    " };
                match list {
                    0 => {
                        buf.extend_from_slice(start);
                        buf.extend_from_slice(if v == 0 { b"\"P\"" } else { b"\"N\"" });
                    }
                    1 => {
                        buf.extend_from_slice(start);
                        put(&mut buf, v);
                    }
                    _ if v == 0 => {
                        buf.extend_from_slice(start);
                        put(&mut buf, n);
                    }
                    _ => return,
                }
                first = false;
                flush(&mut buf, &mut out);
            });
            buf.extend_from_slice(if first { b"[]" } else { b"\n  ]" });
        }
        buf.extend_from_slice(pieces[3]);
    }
    out.write_all(&buf).expect("written");
    out.flush().expect("flushed");
}
