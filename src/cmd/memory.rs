//! Memory: how the allocator (mimalloc, `main.rs`) gives memory back, set once before any
//! command runs. A large build's peak is what stays held, and two of mimalloc's defaults held
//! more than the build had in use:
//! - transparent huge pages: mimalloc asks for them on its regions, and a 2 MiB page stays
//!   resident while any of it is in use, so memory freed between stages was not given back
//!   (10,000 entries, kept lean: peak 155 -> 136 MiB without them);
//! - the purge delay: mimalloc v3 keeps freed pages a second before giving them back, long
//!   enough for a stage's temporaries to be held still while the next one peaks. 10 ms
//!   (mimalloc v2's default) gave back a further 20 MiB of that build (136 -> 116 MiB) for no
//!   CPU time measured; 0 gave back 4 MiB more and cost a fifth more CPU time.

/// mimalloc's number of the `purge_delay` option (`mi_option_purge_delay` in `mimalloc.h`;
/// option numbers are kept across versions, a retired one keeps its slot).
const PURGE_DELAY: std::ffi::c_int = 15;
/// How long freed memory is kept before it is given back, in milliseconds.
const PURGE_DELAY_MS: std::ffi::c_long = 10;

extern "C" {
    /// mimalloc's own setter (the `libmimalloc-sys` crate built into the binary exports it).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Set the allocator's options for this process; call first thing, before threads start.
pub(crate) fn tune() {
    // SAFETY: `mi_option_set` only stores an integer in mimalloc's option table; it is called
    // before any other thread exists, as mimalloc asks.
    unsafe { mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) };
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes integers only and changes this process's own page
    // policy; on a kernel without it the call fails and nothing changes.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
