//! FNV-1a, the hash of a checkpoint's checksum and of a game's compiled rules (its
//! fingerprint): one definition for both, below the modules that use it.

/// The FNV-1a offset basis.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits: every change of a single byte changes the result (each step is a bijection
/// of the state for a given byte), which is what a checksum of a file needs.
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
