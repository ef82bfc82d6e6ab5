//! Both threads read one copy of the values: once its room is reserved, the kernel's buffer
//! never moves on two threads, whether the second thread works ahead (0.6) or computes every
//! other pile and writes its value in place (0.161, and .172, whose values widen on the way:
//! `Slots::lease`, `Slots::write_past`). A place lent and not taken back, or a value the kernel
//! could not take as written, would move it.

use super::super::values::with_slots;
use super::HeapKernel;
use crate::solve::heap::HeapRules;

/// A kernel for the octal game `code`, on `threads` threads.
fn kernel_of(code: &str, threads: usize) -> HeapKernel {
    let game = crate::solve::test_support::game_text(&format!("game \"g\"\npiles\nmove: octal {code}\n"));
    let mut kernel = HeapKernel::new(HeapRules::compile(&game).expect("an octal code compiles"));
    kernel.set_threads(threads);
    kernel
}

/// The values of `code` to `upto` on `threads` threads, whether the values' buffer stayed where
/// it was but where they widened (from one byte to two: a new buffer), and whether a second
/// thread took part.
fn run(code: &str, upto: usize, threads: usize) -> (Vec<u32>, bool, bool) {
    let (values, stayed, second_thread, _, _, _) = run_with_room(code, upto, threads, true);
    (values, stayed, second_thread)
}

/// `run`, with the room for the values reserved first or grown as they come, and the work
/// counted too, how many stretches of piles and moves of the values' buffer under them there
/// were (see `stretch`), and how many piles the kernel's thread settled by computing them again.
#[allow(clippy::type_complexity)] // a test's findings, named where they are read
fn run_with_room(code: &str, upto: usize, threads: usize, reserved: bool) -> (Vec<u32>, bool, bool, u64, u64, u64) {
    let mut kernel = kernel_of(code, threads);
    if reserved {
        kernel.reserve_total(upto);
    }
    let mut work = 0;
    let buffer = |k: &HeapKernel| (k.values.width(), with_slots!(&k.values, g => g.as_ptr() as usize));
    let mut last = None;
    let (mut stayed, mut second_thread, mut stretches_and_moves) = (true, false, 0);
    while kernel.computed() < upto {
        assert!(kernel.push_next(&mut work).expect("no limit is near"), "{code}: a pile was not computed");
        let now = buffer(&kernel);
        stayed &= last.is_none_or(|(width, at)| width != now.0 || at == now.1);
        last = Some(now);
        second_thread |= kernel.pair_thread.is_some() || kernel.ahead.as_ref().is_some_and(|a| a.has_thread());
        // In a stretch, the epoch counts the stretches and the buffers the values moved to.
        stretches_and_moves = kernel.stretch_epoch;
    }
    let values = (0..upto as u64).map(|n| kernel.value(n).expect("every value is kept")).collect();
    (values, stayed, second_thread, work, stretches_and_moves, kernel.settled_again)
}

#[test]
fn two_threads_read_the_values_where_the_kernel_wrote_them() {
    for (code, upto) in [("0.6", 1 << 17), ("0.161", 1 << 17), ("0.172", 1 << 17)] {
        let (alone, _, _) = run(code, upto, 1);
        let (values, stayed, second_thread) = run(code, upto, 2);
        assert!(second_thread, "{code}: no second thread took part");
        assert_eq!(values, alone, "{code}: the values differ on two threads");
        assert!(stayed, "{code}: the values' buffer moved");
    }
}

#[test]
fn a_stretch_of_piles_goes_on_when_the_values_move_and_counts_the_same_work() {
    // No room reserved: the values move to a buffer twice as large again and again, and
    // 0.172's widen, while the second thread computes a stretch's odd piles by itself; each
    // time it takes a share of the new buffer. The values and the work counted are those of
    // one thread.
    for (code, upto) in [("0.161", 1 << 17), ("0.172", 1 << 16), ("0.6", 1 << 16)] {
        let (alone, _, _, work_alone, _, _) = run_with_room(code, upto, 1, false);
        let (values, stayed, second_thread, work, stretched, _) = run_with_room(code, upto, 2, false);
        assert!(second_thread, "{code}: no second thread took part");
        assert!(stretched > 16, "{code}: {stretched} stretches and moves");
        assert!(!stayed, "{code}: the values never moved");
        assert_eq!(values, alone, "{code}: the values differ on two threads");
        assert_eq!(work, work_alone, "{code}: the work differs on two threads");
    }
}

/// 0.6's values by their definition: taking one token leaves one heap or two, never none.
fn officers(upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(upto);
    let mut seen = Vec::new();
    for n in 0..upto {
        seen.clear();
        seen.resize(2 * n + 2, false);
        if n >= 2 {
            seen[g[n - 1] as usize] = true;
        }
        for a in 1..n.saturating_sub(1) {
            seen[(g[a] ^ g[n - 1 - a]) as usize] = true;
        }
        g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
    }
    g
}

#[test]
fn a_pile_computed_without_the_heap_before_it_is_settled_by_its_value() {
    // 0.6: pile n + 1 is computed beside pile n, without the option of the one heap n that
    // taking a token leaves, and settled once pile n is known; where that option is the value
    // it left out, the pile is computed again. Both happen before 8,192, on one thread and on
    // two, and the values are those of the definition.
    let upto = 1 << 13;
    let mut kernel = kernel_of("0.6", 1);
    let mut work = 0;
    while kernel.computed() < upto {
        assert!(kernel.push_next(&mut work).expect("no limit is near"));
    }
    assert!(kernel.settled_again >= 2, "{} piles computed again", kernel.settled_again);
    let values: Vec<u32> = (0..upto as u64).map(|n| kernel.value(n).expect("every value is kept")).collect();
    assert_eq!(values, officers(upto));
    let (two, _, second_thread, work_two, stretched, here) = run_with_room("0.6", upto, 2, false);
    assert!(second_thread && stretched > 4, "{stretched} stretches on two threads");
    // Some of them on the second thread, which settles the odd piles of its stretches.
    assert!(here < kernel.settled_again, "{here} of {} piles computed again here", kernel.settled_again);
    assert_eq!((two, work_two), (values, work));
}

#[test]
fn a_stretch_goes_on_when_a_question_moves_the_values_between_two_of_its_piles() {
    // A user asking pile by pile: each question reserves room for its piles first, which
    // moves the values when they need more than their room, often in the middle of a stretch
    // whose second thread has just written its next pile in the buffer they leave. 0.172 and
    // 0.662 (which defers pile n's option, and is settled on the second thread) widen to two
    // bytes on the way, with room to spare, so a later question moves them in mid-stretch.
    // The answer must not be taken as written in the new buffer (0.662 gave 39 for 4 at 5,995
    // when it was): the values and the work are those of one thread.
    for (code, upto) in [("0.172", 1 << 14), ("0.662", 1 << 14)] {
        let mut results = Vec::new();
        for threads in [1, 2] {
            let mut kernel = kernel_of(code, threads);
            let (mut work, mut stretched, mut moved) = (0, 0, 0);
            let mut buffer = kernel.values.buffer();
            while kernel.computed() < upto {
                // A question for the pile 11 past the last (as `PileValues::extend` reserves).
                kernel.reserve_total(kernel.computed() + 12);
                moved += u64::from(kernel.stretch.is_some() && kernel.values.buffer() != buffer);
                buffer = kernel.values.buffer();
                for _ in 0..11 {
                    assert!(kernel.push_next(&mut work).expect("no limit is near"));
                }
                stretched = stretched.max(kernel.stretch_epoch);
            }
            let values: Vec<u32> = (0..upto as u64).map(|n| kernel.value(n).expect("every value is kept")).collect();
            results.push((values, work));
            if threads == 2 {
                assert!(stretched > 16 && moved > 16, "{code}: {stretched} stretches, {moved} moves in one");
            }
        }
        assert_eq!(results[1], results[0], "{code}: two threads differ from one");
    }
}
