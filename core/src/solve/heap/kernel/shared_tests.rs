//! Both threads read one copy of the values: once its room is reserved, the kernel's buffer
//! never moves on two threads, whether the second thread works ahead (0.6) or computes every
//! other pile and writes its value in place (0.161, and .172, whose values widen on the way:
//! `Slots::lease`). A place lent and not taken back, or a value the kernel could not take as
//! written, would move it.

use super::super::values::with_slots;
use super::HeapKernel;
use crate::solve::heap::HeapRules;

/// The values of `code` to `upto` on `threads` threads, whether the values' buffer stayed where
/// it was but where they widened (from one byte to two: a new buffer), and whether a second
/// thread took part.
fn run(code: &str, upto: usize, threads: usize) -> (Vec<u32>, bool, bool) {
    let game = crate::solve::test_support::game_text(&format!("game \"g\"\npiles\nmove: octal {code}\n"));
    let rules = HeapRules::compile(&game).expect("an octal code compiles");
    let mut kernel = HeapKernel::new(rules);
    kernel.set_threads(threads);
    kernel.reserve_total(upto);
    let mut work = 0;
    let buffer = |k: &HeapKernel| (k.values.width(), with_slots!(&k.values, g => g.as_ptr() as usize));
    let mut last = None;
    let (mut stayed, mut second_thread) = (true, false);
    while kernel.computed() < upto {
        assert!(kernel.push_next(&mut work).expect("no limit is near"), "{code}: a pile was not computed");
        let now = buffer(&kernel);
        stayed &= last.is_none_or(|(width, at)| width != now.0 || at == now.1);
        last = Some(now);
        second_thread |= kernel.pair_thread.is_some() || kernel.ahead.as_ref().is_some_and(|a| a.has_thread());
    }
    let values = (0..upto as u64).map(|n| kernel.value(n).expect("every value is kept")).collect();
    (values, stayed, second_thread)
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
