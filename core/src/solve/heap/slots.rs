//! An append-only table that one thread writes and others read without a copy: the kernel's
//! values, which its second thread reads while the kernel stores more (a record run's values
//! are most of its memory, and a copy a thread would double them).
//!
//! A table is a buffer shared by reference count, and a length. The handle that made the
//! buffer is its one writer: it writes only past its own length, and every other handle
//! (`share`) reads only below the length it was given, which is never more than the writer's.
//! So no place is written while another thread may read it. A share is handed to a thread
//! through a channel, which orders the writes before it ahead of the reads after it.
//!
//! Whatever would move or overwrite values another handle may read (growing past the buffer,
//! dropping values, writing to a share) makes a new buffer instead, and the old one lives on
//! for the handles that still read it. A writer alone with its buffer grows it in place.
//!
//! The writer may also lend one place past its length to another thread (`lease`), which
//! computes that place's value: the thread writes it there (`Lease::fill`), reads it with the
//! values below (`Slots::with_filled`), and the writer takes it as its next value without a
//! write of its own (`adopt`). The writer never writes a place it lent in that buffer until
//! the lease comes back unfilled (`give_back`); a lease that never comes back costs a copy.

use std::sync::Arc;

/// One allocation of `capacity` slots, of which a prefix is written (each handle knows how
/// much of it is its own).
struct Buffer<T> {
    start: *mut T,
    capacity: usize,
}

// The buffer is plain memory: handles on other threads read its written prefix only (see the
// module's comment), so it is as shareable as a `Vec<T>` behind an `Arc`.
unsafe impl<T: Send + Sync> Send for Buffer<T> {}
unsafe impl<T: Send + Sync> Sync for Buffer<T> {}

impl<T: Copy> Buffer<T> {
    /// A buffer holding `vec`'s values, in its allocation.
    fn of_vec(vec: Vec<T>) -> (Buffer<T>, usize) {
        let mut vec = std::mem::ManuallyDrop::new(vec);
        let (start, len, capacity) = (vec.as_mut_ptr(), vec.len(), vec.capacity());
        (Buffer { start, capacity }, len)
    }

    /// The buffer as the vector that owns it, its first `len` values written; the buffer is
    /// left owning nothing.
    fn take_vec(&mut self, len: usize) -> Vec<T> {
        debug_assert!(len <= self.capacity);
        let (start, capacity) = (self.start, self.capacity);
        self.capacity = 0;
        self.start = std::ptr::NonNull::dangling().as_ptr();
        // Safety: `start` and `capacity` came from a vector (`of_vec`), the first `len` slots are
        // written, and the buffer no longer owns the allocation.
        unsafe { Vec::from_raw_parts(start, len, capacity) }
    }
}

impl<T> Drop for Buffer<T> {
    fn drop(&mut self) {
        // Safety: the allocation came from a vector of this capacity; a length of 0 drops no
        // value (the values are `Copy` in every use, and need no drop).
        drop(unsafe { Vec::from_raw_parts(self.start, 0, self.capacity) });
    }
}

/// A table of values: the writer's, or a share of it that reads its first `len` values.
pub(crate) struct Slots<T> {
    buffer: Arc<Buffer<T>>,
    /// the buffer's start and capacity, held here too: the buffer's own sit beside its
    /// reference count, which the other thread changes as it takes and drops shares, and a
    /// read of them would then wait for that cache line (0.564 to 2^21 on two threads: 13.2 s
    /// reading them there, 11.0 s here; 10.0 s once a share grew without a count changed, as
    /// fast as with a copy of the values for each thread)
    start: *mut T,
    capacity: usize,
    len: usize,
    /// whether this handle made its buffer and may write past `len` (a share never does)
    writer: bool,
    /// the places of this buffer lent to another thread and not yet adopted or given back
    lent: Vec<usize>,
}

/// One place of a table lent to another thread, to write its value there once.
pub(crate) struct Lease<T> {
    buffer: Arc<Buffer<T>>,
    at: usize,
}

/// A place its lease filled: the values below it and it can be read together.
#[derive(Clone)]
pub(crate) struct Filled<T> {
    buffer: Arc<Buffer<T>>,
    at: usize,
}

// A handle reads its buffer's written prefix, as the buffer allows (see `Buffer`).
unsafe impl<T: Send + Sync> Send for Slots<T> {}
unsafe impl<T: Send + Sync> Sync for Slots<T> {}

impl<T: Copy> Lease<T> {
    /// Writes the place's value.
    pub(crate) fn fill(self, value: T) -> Filled<T> {
        // Safety: the place is past the length of every handle on this buffer (the writer's
        // was below it when it lent it, and shares are never longer), so no one reads it, and
        // the writer does not write it while it is lent (see the module's comment).
        unsafe { self.buffer.start.add(self.at).write(value) };
        Filled { buffer: self.buffer, at: self.at }
    }
}

impl<T: Copy> Slots<T> {
    /// A table holding `vec`'s values.
    pub(crate) fn from_vec(vec: Vec<T>) -> Self {
        let (buffer, len) = Buffer::of_vec(vec);
        Slots::handle(Arc::new(buffer), len, true)
    }

    /// A handle on `buffer` that reads its first `len` values.
    fn handle(buffer: Arc<Buffer<T>>, len: usize, writer: bool) -> Self {
        let (start, capacity) = (buffer.start, buffer.capacity);
        Slots { buffer, start, capacity, len, writer, lent: Vec::new() }
    }

    /// An empty table with room for `capacity` values.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Slots::from_vec(Vec::with_capacity(capacity))
    }

    /// A table that reads the same values as this one, as they are now, without a copy: the
    /// writer's later values are not its own, and writing to it makes a buffer of its own.
    pub(crate) fn share(&self) -> Self {
        Slots::handle(Arc::clone(&self.buffer), self.len, false)
    }

    /// Lends place `at` (past the length, within the room) for another thread to fill; `None`
    /// when this handle does not write its buffer or the place is out of its reach.
    pub(crate) fn lease(&mut self, at: usize) -> Option<Lease<T>> {
        if !self.writer || at < self.len || at >= self.capacity || self.lent.contains(&at) {
            return None;
        }
        self.lent.push(at);
        Some(Lease { buffer: Arc::clone(&self.buffer), at })
    }

    /// Takes back a lease never filled: its place may be written again.
    pub(crate) fn give_back(&mut self, lease: Lease<T>) {
        if Arc::ptr_eq(&lease.buffer, &self.buffer) {
            self.lent.retain(|&at| at != lease.at);
        }
    }

    /// Takes a filled place as the next value, without writing it; false (and nothing done)
    /// unless the place is this buffer's next one.
    pub(crate) fn adopt(&mut self, filled: &Filled<T>) -> bool {
        let next = self.writer && filled.at == self.len && Arc::ptr_eq(&filled.buffer, &self.buffer);
        if next {
            self.lent.retain(|&at| at != filled.at);
            self.len += 1;
        }
        next
    }

    /// This share with the place just past it, which `filled` wrote, when it did so in this
    /// buffer.
    pub(crate) fn with_filled(mut self, filled: &Filled<T>) -> Result<Self, Self> {
        // This very handle, longer: no reference count changes (see `start`).
        let next = !self.writer && filled.at == self.len && Arc::ptr_eq(&filled.buffer, &self.buffer);
        if next {
            self.len += 1;
            Ok(self)
        } else {
            Err(self)
        }
    }

    /// The buffer's first slot: two handles with the same one read and write one buffer while
    /// both live (a handle keeps its buffer alive, so no other buffer takes its place).
    pub(crate) fn buffer_start(&self) -> *const T {
        self.start
    }

    /// Asks the processor for slot `at`'s cache line, to be written: where another core wrote
    /// it last, its transfer then overlaps the work before the write instead of stalling it. A
    /// hint, which reads and writes nothing and never faults, wherever `at` lies.
    #[inline]
    pub(crate) fn prefetch_for_write(&self, at: usize) {
        let place = self.start.wrapping_add(at);
        #[cfg(target_arch = "x86_64")]
        // Safety: PREFETCHW neither reads nor writes memory the program sees, and does not fault
        // on any address (processors without it run it as a no-op).
        unsafe {
            std::arch::asm!("prefetchw [{0}]", in(reg) place, options(nostack, preserves_flags, readonly));
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = place;
    }

    /// Makes this share read the first `len` values of its buffer (fewer than it read, or more).
    ///
    /// # Safety
    /// Every place below `len` has been written in this buffer (by its writer, or by
    /// `write_past` through this share), and those writes happen before this call (a release
    /// by the writing thread that this one acquired); no one writes them again while the share
    /// reads them (the writer writes only at its own length and past it).
    pub(crate) unsafe fn read_up_to(&mut self, len: usize) {
        debug_assert!(!self.writer && len <= self.capacity);
        if !self.writer {
            self.len = len.min(self.capacity);
        }
    }

    /// Writes `value` at place `at` of the buffer, through a share that does not read it; false
    /// (nothing written) when the place is outside the buffer's room or below this share's
    /// length.
    ///
    /// # Safety
    /// No other handle reads or writes place `at` until its writer takes it (`adopt_written`)
    /// after an acquire that this write happens before; the writer neither writes it nor reads
    /// it before then (its length is at most `at`).
    pub(crate) unsafe fn write_past(&self, at: usize, value: T) -> bool {
        if self.writer || at < self.len || at >= self.capacity {
            return false;
        }
        // Safety: within the allocation (below its capacity), and no handle reads or writes the
        // place meanwhile (the caller's promise).
        unsafe { self.start.add(at).write(value) };
        true
    }

    /// Takes the place at its length, which a share wrote (`write_past`), as its next value;
    /// false (nothing done) unless this handle writes its buffer and the place is within it.
    ///
    /// # Safety
    /// A share of this very buffer wrote the place with `write_past`, and that write happens
    /// before this call.
    pub(crate) unsafe fn adopt_written(&mut self) -> bool {
        let next = self.writer && self.len < self.capacity && !self.lent.contains(&self.len);
        if next {
            self.len += 1;
        }
        next
    }

    /// How many values the buffer holds room for.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Appends a value: in place when this handle writes its buffer and there is room, else in a
    /// buffer of its own with room for twice as many.
    pub(crate) fn push(&mut self, value: T) {
        if !self.writer || self.len == self.capacity {
            self.reserve(self.len.max(8));
        }
        if self.lent.contains(&self.len) {
            // Lent and not given back: another thread may still write it here.
            self.move_to(Vec::with_capacity(self.capacity));
        }
        // Safety: `len` is below the capacity (reserved above), no other handle reads at `len` or
        // past it (shares read below their own length, at most this one's), and the writer is the
        // only handle that writes this buffer.
        unsafe { self.start.add(self.len).write(value) };
        self.len += 1;
    }

    /// Room for `more` values past the length, in a buffer this handle writes: the same one when
    /// it does and there is room, grown in place when no other handle reads it, else a new one.
    pub(crate) fn reserve(&mut self, more: usize) {
        let wanted = self.len.saturating_add(more);
        if self.writer && wanted <= self.capacity {
            return;
        }
        let len = self.len;
        match Arc::get_mut(&mut self.buffer).filter(|_| self.writer) {
            Some(buffer) => {
                let mut vec = buffer.take_vec(len);
                vec.reserve_exact(wanted - len);
                *self = Slots::from_vec(vec);
            }
            None => self.move_to(Vec::with_capacity(wanted)),
        }
    }

    /// Moves the values into `room`, a buffer of this handle's own: the old one is left to the
    /// handles that read it, and to the leases of its places.
    fn move_to(&mut self, mut room: Vec<T>) {
        room.extend_from_slice(self);
        *self = Slots::from_vec(room);
    }

    /// Forgets the values at `range`, moving the later ones down: in place when no other handle
    /// reads this buffer, else into a new one of the same capacity.
    pub(crate) fn forget(&mut self, range: std::ops::Range<usize>) {
        let len = self.len;
        let capacity = self.capacity;
        let mut vec = match Arc::get_mut(&mut self.buffer).filter(|_| self.writer) {
            Some(buffer) => buffer.take_vec(len),
            None => {
                let mut vec = Vec::with_capacity(capacity);
                vec.extend_from_slice(self);
                vec
            }
        };
        vec.drain(range);
        // A lease's place moved with the values after it: the leases stay with the old buffer.
        *self = Slots::from_vec(vec);
    }
}

impl<T: Copy> Default for Slots<T> {
    fn default() -> Self {
        Slots::from_vec(Vec::new())
    }
}

impl<T: Copy> std::ops::Deref for Slots<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // Safety: the first `len` slots of the buffer are written (by the writer, before this
        // handle was made or by this handle itself), and no handle writes below its own length.
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }
}

impl<T: Copy> Extend<T> for Slots<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, values: I) {
        let values = values.into_iter();
        self.reserve(values.size_hint().0);
        values.for_each(|v| self.push(v));
    }
}

impl<'a, T: Copy + 'a> Extend<&'a T> for Slots<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, values: I) {
        self.extend(values.into_iter().copied());
    }
}

impl<T: Copy> From<Vec<T>> for Slots<T> {
    fn from(vec: Vec<T>) -> Self {
        Slots::from_vec(vec)
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for Slots<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;

    #[test]
    fn a_share_reads_what_the_writer_had_and_writing_it_copies() {
        let mut writer = Slots::from_vec(Vec::with_capacity(4));
        writer.push(1u16);
        writer.push(2);
        let mut share = writer.share();
        writer.push(3);
        assert_eq!((&*writer, &*share), (&[1, 2, 3][..], &[1, 2][..]));
        share.push(9);
        writer.push(4);
        assert_eq!((&*writer, &*share), (&[1, 2, 3, 4][..], &[1, 2, 9][..]));
        assert!(!std::ptr::eq(writer.as_ptr(), share.as_ptr()));
    }

    #[test]
    fn growing_or_forgetting_under_a_share_leaves_it_its_values() {
        let mut writer = Slots::from_vec(vec![0u8, 1, 2, 3]);
        let share = writer.share();
        for v in 4..40 {
            writer.push(v);
        }
        writer.forget(2..10);
        assert_eq!(&*share, &[0, 1, 2, 3]);
        let expected: Vec<u8> = [0, 1].into_iter().chain(10..40).collect();
        assert_eq!(&*writer, &expected[..]);
        // Alone, the writer forgets in place.
        drop(share);
        let before = writer.as_ptr();
        writer.forget(0..1);
        assert_eq!((writer.as_ptr(), writer[0]), (before, 1));
    }

    #[test]
    fn a_lent_place_filled_is_adopted_without_a_write_and_read_by_its_filler() {
        let mut writer = Slots::from_vec(Vec::with_capacity(16));
        writer.extend([5u16, 6, 7]);
        let lease = writer.lease(3).expect("room for it");
        assert!(writer.lease(3).is_none(), "one lease a place");
        let share = writer.share();
        let filled = lease.fill(8);
        let longer = share.with_filled(&filled).expect("the place just past the share");
        assert_eq!(&*longer, &[5, 6, 7, 8]);
        let before = writer.as_ptr();
        assert!(writer.adopt(&filled));
        assert_eq!((&*writer, writer.as_ptr()), (&[5, 6, 7, 8][..], before));
        // Adopted once: the next place is not that one.
        assert!(!writer.adopt(&filled));
    }

    #[test]
    fn a_lease_not_given_back_is_never_written_over() {
        let mut writer = Slots::from_vec(Vec::with_capacity(16));
        writer.extend([1u8, 2]);
        let lease = writer.lease(2).expect("room for it");
        // The writer stores the place itself while the lease is out: into a new buffer, where
        // a late fill of the old one changes nothing it reads.
        writer.push(3);
        let filled = lease.fill(99);
        assert_eq!(&*writer, &[1, 2, 3]);
        assert!(!writer.adopt(&filled));
        // Given back, the place is the writer's again, in the same buffer.
        let lease = writer.lease(3).expect("room for it");
        let before = writer.as_ptr();
        writer.give_back(lease);
        writer.push(4);
        assert_eq!((&*writer, writer.as_ptr()), (&[1, 2, 3, 4][..], before));
    }

    #[test]
    fn a_fill_after_the_values_moved_is_not_adopted() {
        let mut writer = Slots::from_vec(Vec::with_capacity(4));
        writer.extend([1u32, 2, 3]);
        let lease = writer.lease(3).expect("room for it");
        let share = writer.share();
        // Room for more while the lease is out: a new buffer.
        writer.reserve(10);
        let filled = lease.fill(4);
        assert!(!writer.adopt(&filled));
        writer.push(4);
        assert_eq!(&*writer, &[1, 2, 3, 4]);
        assert_eq!(&*share.with_filled(&filled).expect("its own buffer"), &[1, 2, 3, 4]);
        assert!(writer.share().with_filled(&filled).is_err());
    }

    #[test]
    fn a_thread_reads_a_share_while_the_writer_goes_on() {
        let mut writer = Slots::from_vec(Vec::with_capacity(1 << 12));
        for v in 0..1000u32 {
            writer.push(v);
        }
        let (send, receive) = std::sync::mpsc::channel::<Slots<u32>>();
        let reader = std::thread::spawn(move || {
            let mut sums = Vec::new();
            while let Ok(share) = receive.recv() {
                sums.push((share.len(), share.iter().map(|&v| v as u64).sum::<u64>()));
            }
            sums
        });
        for round in 0..50u32 {
            let _ = send.send(writer.share());
            for v in 0..100 {
                writer.push(1000 + round * 100 + v);
            }
        }
        drop(send);
        let sums = reader.join().unwrap_or_default();
        assert_eq!(sums.len(), 50);
        for (len, sum) in sums {
            let expected: u64 = (0..len as u64).sum();
            assert_eq!(sum, expected, "a share of {len} values");
        }
    }
}
