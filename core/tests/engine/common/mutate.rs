//! Game files mutated at random, for the hostile-input tests of the engine and of the command
//! line (which includes this file by path): a deterministic generator, the tokens it splices
//! in, and the repository's game files to start from.
#![allow(dead_code)]

use std::path::PathBuf;

/// A small deterministic generator (xorshift), so that a failing case can be replayed by seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Words and phrases of the language, for insertions and replacements.
const TOKENS: &[&str] = &[
    "take",
    "1..3",
    "1..",
    "..",
    "split",
    "into",
    "unequal",
    "then",
    "not",
    "-",
    "(",
    ")",
    "where",
    "t",
    "n",
    "last",
    "any",
    "except",
    "coins",
    "coin",
    "turn",
    "rows",
    "bite",
    "square",
    "but",
    "(1, 1)",
    "octal",
    "0.77",
    "0.007",
    "code",
    "4!.0",
    "play misère",
    "piles",
    "pile",
    "add",
    "up",
    "to",
    "from",
    "each",
    "both",
    "of",
    "the",
    "other",
    "consecutive",
    "symmetric",
    "equally spaced",
    "including the first",
    "within",
    "and",
    "or",
    "≤",
    "<",
    "=",
    "%",
    "*",
    "+",
    "2·last",
    "param k = 5",
    "k",
    "first move:",
    "move:",
    "game \"X\"",
    "tartan product of \"nim\" and \"nim\"",
    "acrostic product of \"twins\" and \"twins\"",
    "\"",
    "#",
    ",",
    "\n",
];

/// Numbers a mutation puts into the rules or the board.
const HUGE: &[&str] = &[
    "0",
    "1000000",
    "4294967296",
    "1000000000000",
    "1000000000000000000",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "65535",
];

pub fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(words.len().max(1));
        match rng.below(10) {
            0..=2 => {
                // A number in the text becomes a huge one.
                let numbered: Vec<usize> =
                    (0..words.len()).filter(|&i| words[i].chars().any(|c| c.is_ascii_digit())).collect();
                if let Some(&i) = numbered.get(rng.below(numbered.len().max(1))) {
                    let huge = rng.pick(HUGE);
                    let w = &words[i];
                    let start = w.find(|c: char| c.is_ascii_digit()).unwrap();
                    let end = w[start..].find(|c: char| !c.is_ascii_digit()).map_or(w.len(), |e| start + e);
                    words[i] = format!("{}{huge}{}", &w[..start], &w[end..]);
                }
            }
            3..=4 => words.insert(at, rng.pick(TOKENS).to_string()),
            5 => {
                if at < words.len() {
                    words.remove(at);
                }
            }
            6 => {
                if at < words.len() {
                    words[at] = rng.pick(TOKENS).to_string();
                }
            }
            7 => words.insert(at, rng.pick(HUGE).to_string()),
            8 => {
                // Deep nesting or a long chain.
                let n = [50, 300, 5_000][rng.below(3)];
                let piece = ["(", "-", "not ", "1+"][rng.below(4)];
                words.insert(at, piece.repeat(n));
            }
            _ => {
                // A long line.
                words.insert(at, " ".repeat([200, 70_000][rng.below(2)]));
            }
        }
    }
    words.join(" ")
}

/// The game files of `games/`, in order: what the mutation tests start from.
pub fn bundled_games() -> Vec<PathBuf> {
    // The repository's games/, from the command line's tests or from the engine's.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = if root.join("games").is_dir() { root.join("games") } else { root.join("..").join("games") };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    files
}
