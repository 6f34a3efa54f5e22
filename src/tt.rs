//! The transposition table: shared by all search threads, lock-free.
//!
//! Each entry is two `AtomicU64`: `key ^ data` and `data`. A reader accepts an entry only if
//! the two XOR back to its key, so a torn write (two threads storing at once) reads as a miss
//! instead of a corrupted move or score. Entries come in clusters of four (one cache line);
//! the cluster index uses the multiply-shift trick on the key. Replacement prefers the same
//! position, then the entry whose depth minus age is lowest. Mate scores are stored relative
//! to the node and converted back relative to the root on probe.

use std::alloc::{alloc, dealloc, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use crate::search::score::{MATE_BOUND, NONE_SCORE};
use crate::types::Move;

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TtBound {
    /// Nothing stored (or a static eval only).
    None = 0,
    /// The score is a lower bound (fail high).
    Lower = 1,
    /// The score is an upper bound (fail low).
    Upper = 2,
    /// Exact score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move (`Move::NULL` if none).
    pub mv: Move,
    /// Score, already converted to be relative to the root at the probing ply.
    pub score: i32,
    /// Static evaluation of the position (`NONE_SCORE` if not computed).
    pub eval: i32,
    /// Depth of the search that produced the score.
    pub depth: i32,
    /// Bound type.
    pub bound: TtBound,
    /// Whether the entry was on a principal variation.
    pub pv: bool,
}

#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
struct Cluster {
    slots: [Slot; 4],
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

/// Size of a huge page on x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// The clusters: one zeroed allocation, aligned to 2 MiB when it is that big so that Linux can
/// back it with transparent huge pages (asked for with `madvise`, as Stockfish does). A random
/// probe then needs one TLB entry per 2 MiB instead of per 4 KiB page.
struct ClusterBuf {
    ptr: NonNull<Cluster>,
    len: usize,
    layout: Layout,
}

// SAFETY: the buffer is owned and its contents are atomics.
unsafe impl Send for ClusterBuf {}
unsafe impl Sync for ClusterBuf {}

/// Why [`ClusterBuf::new`] has no buffer.
enum NoBuffer {
    /// The system refused the memory.
    Refused,
    /// The caller gave up while the memory was being zeroed.
    Cancelled,
}

impl ClusterBuf {
    /// `len` (≥ 1) zeroed clusters. The zeroing (the slow part: it touches every page) is
    /// split over `threads` threads and gives up as soon as `cancel` is set.
    fn new(len: usize, threads: usize, cancel: &AtomicBool) -> Result<ClusterBuf, NoBuffer> {
        let bytes = len
            .max(1)
            .checked_mul(std::mem::size_of::<Cluster>())
            .ok_or(NoBuffer::Refused)?;
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Cluster>()
        };
        let size = bytes
            .checked_next_multiple_of(align)
            .ok_or(NoBuffer::Refused)?;
        let layout = Layout::from_size_align(size, align).map_err(|_| NoBuffer::Refused)?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc(layout) };
        let ptr = NonNull::new(raw.cast::<Cluster>()).ok_or(NoBuffer::Refused)?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is our own fresh allocation; failure only means small pages.
            unsafe { libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE) };
        }
        // Zero after the advice, so that the first touch faults in huge pages. All-zero
        // bytes are valid empty clusters (atomics of 0).
        let base = raw as usize;
        in_slices(layout.size(), threads, ZERO_CHUNK, |range| {
            for chunk in range.step_by(ZERO_CHUNK) {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let n = ZERO_CHUNK.min(layout.size() - chunk);
                // SAFETY: `chunk..chunk + n` lies in our allocation, and the slices of the
                // threads do not overlap.
                unsafe { std::ptr::write_bytes((base + chunk) as *mut u8, 0, n) };
            }
        });
        if cancel.load(Ordering::Relaxed) {
            // SAFETY: allocated above with this layout.
            unsafe { dealloc(raw, layout) };
            return Err(NoBuffer::Cancelled);
        }
        Ok(ClusterBuf {
            ptr,
            len: len.max(1),
            layout,
        })
    }
}

/// Bytes zeroed between two looks at the cancel flag (a few milliseconds of work).
const ZERO_CHUNK: usize = 16 << 20;

/// Calls `work` on up to `threads` contiguous slices of `0..len` (none shorter than `least`
/// unless it is the only one), each on its own thread: the calling thread takes the last one,
/// and any whose thread the system refuses. Stockfish clears its table with all its threads
/// the same way.
fn in_slices(
    len: usize,
    threads: usize,
    least: usize,
    work: impl Fn(std::ops::Range<usize>) + Sync,
) {
    let threads = threads.clamp(1, 256).min(len / least.max(1)).max(1);
    let per = len.div_ceil(threads).next_multiple_of(64);
    let slices: Vec<std::ops::Range<usize>> = (0..threads)
        .map(|i| (i * per).min(len)..((i + 1) * per).min(len))
        .filter(|r| !r.is_empty())
        .collect();
    let Some((last, others)) = slices.split_last() else {
        return;
    };
    let work = &work;
    std::thread::scope(|s| {
        let mut refused = Vec::new();
        for range in others {
            let r = range.clone();
            let spawned = std::thread::Builder::new()
                .name("tt-clear".into())
                .spawn_scoped(s, move || work(r));
            if spawned.is_err() {
                refused.push(range.clone());
            }
        }
        work(last.clone());
        for range in refused {
            work(range);
        }
    });
}

impl std::ops::Deref for ClusterBuf {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `ptr` holds `len` initialised clusters for the lifetime of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for ClusterBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// Converts a search score at `ply` to its stored (node-relative) form.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back to be relative to the root at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score == NONE_SCORE {
        score
    } else if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2, pv 1, generation 5
#[inline]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: TtBound, pv: bool, gen: u8) -> u64 {
    mv.raw() as u64
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(-1, 254) + 1) as u64) << 48
        | (bound as u64) << 56
        | (pv as u64) << 58
        | ((gen & 0x1f) as u64) << 59
}

#[inline]
fn unpack(data: u64) -> (TtEntry, u8) {
    let entry = TtEntry {
        mv: Move::from_raw(data as u16).unwrap_or(Move::NULL),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - 1,
        bound: match (data >> 56) & 3 {
            0 => TtBound::None,
            1 => TtBound::Lower,
            2 => TtBound::Upper,
            _ => TtBound::Exact,
        },
        pv: (data >> 58) & 1 != 0,
    };
    (entry, (data >> 59) as u8)
}

/// The shared table. All methods take `&self`; it is `Sync`.
pub struct TranspositionTable {
    clusters: ClusterBuf,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` MiB (at least one cluster); see [`TranspositionTable::with_size`].
    pub fn new(mb: usize) -> TranspositionTable {
        let (tt, sizing) = TranspositionTable::with_size(mb);
        if sizing.capped_to_mb.is_some() || !sizing.refused_bytes.is_empty() {
            for line in sizing.notes() {
                log::warn!("{line}");
            }
        }
        tt
    }

    /// The smallest table (one cluster): a stand-in while the real one is replaced.
    pub fn tiny() -> TranspositionTable {
        let never = AtomicBool::new(false);
        match ClusterBuf::new(1, 1, &never) {
            Ok(clusters) => TranspositionTable {
                clusters,
                generation: AtomicU8::new(0),
            },
            Err(_) => std::alloc::handle_alloc_error(Layout::new::<Cluster>()),
        }
    }

    /// A table of about `mb` MiB and how its size came about.
    ///
    /// A request above three quarters of the memory available (see [`memory_cap_mb`]) is cut
    /// to that cap; an allocation the system refuses is halved until it succeeds, so an
    /// oversized `Hash` setting never aborts the engine. The caller frees any old table first.
    pub fn with_size(mb: usize) -> (TranspositionTable, Sizing) {
        let never = AtomicBool::new(false);
        TranspositionTable::with_size_in(mb, 1, &never).expect("never cancelled")
    }

    /// Like [`TranspositionTable::with_size`], zeroing the table with `threads` threads;
    /// `None` if `cancel` was set meanwhile (the memory is freed again).
    pub fn with_size_in(
        mb: usize,
        threads: usize,
        cancel: &AtomicBool,
    ) -> Option<(TranspositionTable, Sizing)> {
        let requested_mb = mb.max(1);
        let mut mb = requested_mb;
        let mut capped_to_mb = None;
        if let Some(cap) = memory_cap_mb().filter(|&cap| mb > cap) {
            capped_to_mb = Some(cap);
            mb = cap;
        }
        let mut refused_bytes = Vec::new();
        let mut count = (mb * 1024 * 1024 / std::mem::size_of::<Cluster>()).max(1);
        let clusters = loop {
            match ClusterBuf::new(count, threads, cancel) {
                Ok(buf) => break buf,
                Err(NoBuffer::Cancelled) => return None,
                Err(NoBuffer::Refused) if count > 1 => {
                    refused_bytes.push(count * std::mem::size_of::<Cluster>());
                    count /= 2;
                }
                // Not even 64 bytes: nothing else could run either.
                Err(NoBuffer::Refused) => std::alloc::handle_alloc_error(Layout::new::<Cluster>()),
            }
        };
        let sizing = Sizing {
            requested_mb,
            capped_to_mb,
            refused_bytes,
            bytes: clusters.len() * std::mem::size_of::<Cluster>(),
        };
        let tt = TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        };
        Some((tt, sizing))
    }

    /// Size in MiB.
    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Empties every entry.
    pub fn clear(&self) {
        self.clear_in(1, &AtomicBool::new(false));
    }

    /// Empties every entry with `threads` threads; gives up (leaving some entries) as soon as
    /// `cancel` is set. No search may run meanwhile.
    pub fn clear_in(&self, threads: usize, cancel: &AtomicBool) {
        const PER_LOOK: usize = ZERO_CHUNK / std::mem::size_of::<Cluster>();
        in_slices(self.clusters.len(), threads, PER_LOOK, |range| {
            for chunk in self.clusters[range].chunks(PER_LOOK) {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                for c in chunk {
                    for s in &c.slots {
                        s.check.store(0, Ordering::Relaxed);
                        s.data.store(0, Ordering::Relaxed);
                    }
                }
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        // SAFETY: i < len because (key * len) >> 64 < len for any 64-bit key.
        debug_assert!(i < self.clusters.len());
        unsafe { self.clusters.get_unchecked(i) }
    }

    /// Hints the CPU to load the cluster of `key` into cache.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: prefetch has no observable effect besides caching; ptr is valid.
            unsafe { _mm_prefetch(ptr, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, with its score made root-relative for `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.cluster(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let (mut e, _) = unpack(data);
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    /// Stores a search result. `score` is root-relative at `ply`; `mv` NULL keeps an old move.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
        pv: bool,
    ) {
        let gen = self.generation.load(Ordering::Relaxed) & 0x1f;
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &cluster.slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let (old, _) = unpack(data);
                // Keep a deeper exact result of the same position unless this one is exact.
                if bound != TtBound::Exact && old.depth > depth + 3 && old.bound != TtBound::None {
                    return;
                }
                let mv = if mv.is_null() { old.mv } else { mv };
                let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, pv, gen);
                slot.data.store(data, Ordering::Relaxed);
                slot.check.store(key ^ data, Ordering::Relaxed);
                return;
            }
            let (old, old_gen) = unpack(data);
            let age = (gen.wrapping_sub(old_gen) & 0x1f) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else {
                old.depth - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, pv, gen);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Fill of the table in per mille (sampled over the first thousand clusters), counting
    /// entries of the current search only.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) & 0x1f;
        let sample = self.clusters.len().min(1000);
        let mut used = 0;
        for c in &self.clusters[..sample] {
            for s in &c.slots {
                let data = s.data.load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// How a table's size came about: what was asked, what the machine allowed, what was
/// allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizing {
    /// The size asked for, in MiB.
    pub requested_mb: usize,
    /// The memory cap, when the request was above it.
    pub capped_to_mb: Option<usize>,
    /// Sizes in bytes the system refused before one succeeded, largest first.
    pub refused_bytes: Vec<usize>,
    /// The size allocated, in bytes.
    pub bytes: usize,
}

impl Sizing {
    /// The size allocated, in whole MiB.
    pub fn allocated_mb(&self) -> usize {
        self.bytes >> 20
    }

    /// What a user should be told: the cap and refusals if any, then the size allocated.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(cap) = self.capped_to_mb {
            notes.push(format!(
                "Hash {} MiB is more than 3/4 of the memory available; trying {cap} MiB",
                self.requested_mb
            ));
        }
        if !self.refused_bytes.is_empty() {
            let sizes: Vec<String> = self.refused_bytes.iter().map(|&b| size_text(b)).collect();
            notes.push(format!(
                "the system refused a hash table of {}",
                sizes.join(", ")
            ));
        }
        notes.push(format!("hash table: {}", size_text(self.bytes)));
        notes
    }
}

/// `4096 MiB`, or `512 KiB` below one MiB.
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// The largest table the engine will try, in MiB: three quarters of the memory available,
/// rounded down to a power of two (so that the same request gives the same size while the
/// machine's free memory drifts a little). `None` when the system does not tell.
///
/// The memory available is Linux's `MemAvailable`, or less when the process runs in a
/// control group (cgroup v2) whose `memory.max` leaves less room: overcommitted memory is
/// only refused when the table is touched, and then by the OOM killer, so the cap is checked
/// before allocating.
pub fn memory_cap_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let mut available = meminfo.as_deref().and_then(mem_available_mb);
    if let Some(room) = cgroup_room_mb() {
        available = Some(available.map_or(room, |a| a.min(room)));
    }
    available.map(cap_of_available)
}

/// Three quarters of `available_mb`, rounded down to a power of two (at least 1).
fn cap_of_available(available_mb: usize) -> usize {
    let cap = (available_mb / 4 * 3).max(1);
    1 << cap.ilog2()
}

/// `MemAvailable` of a `/proc/meminfo` text, in MiB.
fn mem_available_mb(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The memory this process's control group and its ancestors still allow, in MiB (cgroup v2
/// `memory.max` minus `memory.current`, the least over the hierarchy).
fn cgroup_room_mb() -> Option<usize> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?.trim();
    let mut dir = std::path::PathBuf::from("/sys/fs/cgroup");
    dir.push(path.trim_start_matches('/'));
    let mut room: Option<u64> = None;
    loop {
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
        if let (Some(max), Some(current)) = (read("memory.max"), read("memory.current")) {
            if let (Ok(max), Ok(current)) = (max.trim().parse::<u64>(), current.trim().parse()) {
                let left = max.saturating_sub(current);
                room = Some(room.map_or(left, |r| r.min(left)));
            }
        }
        if dir == std::path::Path::new("/sys/fs/cgroup") || !dir.pop() {
            break;
        }
    }
    room.map(|bytes| (bytes >> 20) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn the_memory_cap_is_three_quarters_rounded_down_to_a_power_of_two() {
        assert_eq!(cap_of_available(22_000), 16_384);
        assert_eq!(cap_of_available(21_000), 8_192);
        assert_eq!(cap_of_available(1), 1);
        assert_eq!(cap_of_available(0), 1);
        let meminfo = "MemTotal:       24000000 kB\nMemAvailable:   8388608 kB\n";
        assert_eq!(mem_available_mb(meminfo), Some(8192));
        assert_eq!(mem_available_mb("MemTotal: 5 kB"), None);
    }

    #[test]
    fn the_sizing_says_what_was_allocated_and_why() {
        let (tt, sizing) = TranspositionTable::with_size(2);
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(sizing.allocated_mb(), 2);
        assert_eq!(sizing.notes().last().unwrap(), "hash table: 2 MiB");
        let cut = Sizing {
            requested_mb: 65536,
            capped_to_mb: Some(16384),
            refused_bytes: vec![16384 << 20, 8192 << 20],
            bytes: 4096 << 20,
        };
        assert_eq!(
            cut.notes(),
            [
                "Hash 65536 MiB is more than 3/4 of the memory available; trying 16384 MiB",
                "the system refused a hash table of 16384 MiB, 8192 MiB",
                "hash table: 4096 MiB",
            ]
        );
    }

    #[test]
    fn slices_cover_the_range_once() {
        for (len, threads, least) in [
            (0, 4, 1),
            (1, 4, 1),
            (1000, 3, 1),
            (1000, 8, 300),
            (64, 2, 64),
        ] {
            let seen: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(0)).collect();
            in_slices(len, threads, least, |r| {
                for i in r {
                    seen[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(
                seen.iter().all(|n| n.load(Ordering::Relaxed) == 1),
                "{len} {threads}"
            );
        }
    }

    #[test]
    fn a_parallel_clear_empties_every_entry_and_a_cancelled_one_stops() {
        let tt = TranspositionTable::new(64);
        let keys: Vec<u64> = (1..5000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &k in &keys {
            tt.store(k, 0, Move::NULL, 1, 0, 5, TtBound::Exact, false);
        }
        let cancelled = AtomicBool::new(true);
        tt.clear_in(4, &cancelled);
        assert!(keys.iter().any(|&k| tt.probe(k, 0).is_some()));
        tt.clear_in(4, &AtomicBool::new(false));
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
        assert!(TranspositionTable::with_size_in(64, 2, &cancelled).is_none());
        let (fresh, sizing) = TranspositionTable::with_size_in(64, 3, &AtomicBool::new(false))
            .expect("not cancelled");
        assert_eq!((fresh.size_mb(), sizing.allocated_mb()), (64, 64));
        assert!(keys.iter().all(|&k| fresh.probe(k, 0).is_none()));
    }

    #[test]
    fn store_then_probe_returns_the_entry() {
        let tt = TranspositionTable::new(1);
        let mv: Move = "h2e2".parse().unwrap();
        tt.store(
            0x1234_5678_9abc_def0,
            3,
            mv,
            57,
            -12,
            9,
            TtBound::Exact,
            true,
        );
        let e = tt.probe(0x1234_5678_9abc_def0, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (mv, 57, -12, 9, TtBound::Exact, true)
        );
        assert!(tt.probe(0x1234_5678_9abc_def1, 3).is_none());
    }

    #[test]
    fn mate_scores_are_node_relative_in_the_table() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: stored as mate in 3 from the node.
        tt.store(42, 2, Move::NULL, MATE - 5, 0, 4, TtBound::Exact, false);
        assert_eq!(tt.probe(42, 2).unwrap().score, MATE - 5);
        // The same node reached at ply 6: mate is now 9 plies from the root.
        assert_eq!(tt.probe(42, 6).unwrap().score, MATE - 9);
        assert_eq!(score_from_tt(score_to_tt(-MATE + 7, 3), 3), -MATE + 7);
    }

    #[test]
    fn concurrent_writers_never_produce_a_corrupt_entry() {
        let tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=64u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        // Every writer stores, for key k, a score derived from k; a reader must never see a
        // score that does not belong to the key it probed.
        let expected = |k: u64| (k % 1000) as i32;
        std::thread::scope(|s| {
            for t in 0..4 {
                let (tt, keys) = (&tt, &keys);
                s.spawn(move || {
                    for round in 0..20_000 {
                        let k = keys[(round * 7 + t * 13) % keys.len()];
                        tt.store(
                            k,
                            0,
                            Move::NULL,
                            expected(k),
                            t as i32,
                            (round % 50) as i32,
                            TtBound::Lower,
                            false,
                        );
                        let k2 = keys[(round * 3 + t) % keys.len()];
                        if let Some(e) = tt.probe(k2, 0) {
                            assert_eq!(e.score, expected(k2));
                        }
                    }
                });
            }
        });
    }
}
