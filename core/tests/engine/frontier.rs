//! The open games past the published frontier (`docs/records/`): each record run is resumed
//! from a short checkpoint, and its figures at the size the published tables reach are the
//! published ones (Czajka's tables: Grundy's game and 0.6 to 2²¹, 0.04 and 0.06 to 2¹⁷).

use takeaway_core::{sweep_game, Budget, GameText, RowStatus, SweepGame};

/// A record's game file, as `docs/records/` gives it.
fn record_game(label: &str) -> SweepGame {
    let text = std::fs::read_to_string(crate::common::repository_file(&format!("docs/records/{label}.game")))
        .unwrap_or_else(|e| panic!("docs/records/{label}.game: {e}"));
    SweepGame { label: label.to_string(), text: GameText { source: text, name: None, settings: Default::default() } }
}

/// A published figure of an open game: at `values` values, the largest value (and where it
/// first is, where published), how many are rare and the last rare one.
struct Published {
    game: &'static str,
    values: u64,
    largest: u32,
    largest_at: Option<u64>,
    rare: u64,
    last_rare: u64,
}

const PUBLISHED: [Published; 4] = [
    Published {
        game: "grundys-game",
        values: 1 << 21,
        largest: 231,
        largest_at: Some(763_622),
        rare: 1_274,
        last_rare: 82_860,
    },
    Published {
        game: "octal-0.6",
        values: 1 << 21,
        largest: 319,
        largest_at: Some(1_274_955),
        rare: 1_584,
        last_rare: 20_627,
    },
    Published {
        game: "octal-0.04",
        values: 1 << 17,
        largest: 1_024,
        largest_at: None,
        rare: 18_860,
        last_rare: 131_003,
    },
    Published {
        game: "octal-0.06",
        values: 1 << 17,
        largest: 1_045,
        largest_at: None,
        rare: 52_923,
        last_rare: 131_070,
    },
];

#[test]
fn each_record_resumes_from_a_short_checkpoint_to_the_published_figures() {
    for Published { game: label, values: upto, largest, largest_at, rare, last_rare } in PUBLISHED {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let game = record_game(label);
        let budget = Budget::new().timeout(Some(600.0));
        let short = sweep_game(&game, upto / 8, false, Some(dir.path()), &budget).expect("the short run");
        assert_eq!(short.status, RowStatus::Open, "{label}: {short:?}");
        let row = sweep_game(&game, upto, false, Some(dir.path()), &budget).expect("the resumed run");
        assert_eq!(row.resumed_at, Some(upto / 8), "{label} went on from its checkpoint");
        assert_eq!(row.values_computed, upto, "{label}");
        assert_eq!(row.largest_value, Some(largest), "{label}");
        if let Some(at) = largest_at {
            assert_eq!(row.largest_at, Some(at), "{label}");
        }
        assert_eq!((row.rare_values, row.last_rare), (Some(rare), Some(last_rare)), "{label}");
    }
}
