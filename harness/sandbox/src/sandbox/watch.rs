//! The one watch over a running program, used by every loop that waits for one (a plain run,
//! a sandboxed run, both sides of an interactive pair): given the run's limits and what can be
//! read of it — the time its processes waited for a CPU, memory samples, the tree's CPU
//! counter — it says when to look next and, once the run is over a limit, which limit.
//!
//! It reads nothing itself: every reading goes through a [`Probe`], so its decisions are
//! table-tested below with scripted readings and made-up instants, no process involved.
//!
//! - **Wall clock.** At the bound, time spent runnable but waiting for a CPU is not the
//!   program's (a busy machine is not a program that sleeps): the bound is pushed back by it,
//!   once per look, so only a program that sleeps or blocks reaches it. A tree that waits
//!   because it keeps the CPUs busy itself (a fork bomb) is stopped there once its processes
//!   together have used the CPU limit.
//! - **Memory.** Sampled from soon after the start, then at a fixed period; over the limit is
//!   MLE. A sample may carry the tree's CPU time, bounded as the counter is.
//! - **CPU counter.** Read no sooner than the tree could have used the rest of its bound on
//!   every core at once: a program that ends in time is never read, one that runs to the
//!   bound about log2(bound / [`COUNTER_STEP`]) times.
//!
//! When one look finds several limits over, the first in the harness's `verdict::classify` order
//! is the one said: memory, then CPU time, then the wall clock.

use std::time::{Duration, Instant};

use super::outcome::LimitHit;

/// How often to look again after a kill, in case the SIGKILL'd program is slow to go.
pub(crate) const KILLED_TICK: Duration = Duration::from_millis(50);
/// Tiny cases end before the first sample, so they never pay for opening /proc.
pub(crate) const FIRST_SAMPLE: Duration = Duration::from_millis(2);
pub(crate) const SAMPLE_EVERY: Duration = Duration::from_millis(5);
/// Sampling a whole process group lists /proc: rarer, and a compiler or checker runs long
/// enough that the first sample need not come early.
pub(crate) const GROUP_SAMPLE_EVERY: Duration = Duration::from_millis(50);
/// Closest two readings of the CPU counter may be: the overshoot is at most this times the
/// cores.
pub(crate) const COUNTER_STEP: Duration = Duration::from_millis(5);

/// What the watch holds a run to, and what it can read of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The wall-clock bound from the start; `None`: a bound given from outside
    /// ([`Watch::hold_to`]), never pushed back.
    pub wall: Option<Duration>,
    /// Whether the time the run's processes waited for a CPU pushes the wall bound back.
    pub push_back: bool,
    /// The CPU limit: a tree that has used it by the wall bound is stopped there.
    pub cpu_limit: Duration,
    /// The CPU time past which the tree is stopped, by the counter or the samples (the bound
    /// each process's RLIMIT_CPU holds it to alone).
    pub cpu_stop: Duration,
    /// Memory samples, when they are taken.
    pub sampling: Option<Sampling>,
    /// The tree's CPU counter is read, planned for this many cores.
    pub counter: Option<u32>,
}

/// When memory is sampled, and the limit it is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sampling {
    /// Bytes; over it is MLE.
    pub limit: u64,
    /// The first sample, from the start.
    pub first: Duration,
    /// Then one every this long.
    pub every: Duration,
}

/// What the processes of a run said in their schedstat files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Schedstat {
    /// CPU time its live processes used so far, summed.
    pub cpu_time: Duration,
    /// Time spent runnable but waiting for a CPU: the longest one process of a tree waited,
    /// and, for an interactive pair, the sum over the parties, which wait for each other.
    pub run_delay: Duration,
}

/// One look at a run's memory.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sample {
    /// Resident memory of its processes, in bytes.
    pub resident: u64,
    /// Bytes of the files it wrote in its folder (a tmpfs: memory too).
    pub files: u64,
    /// Bytes its sockets are counted for, where no cgroup charges the kernel's memory: the
    /// most their buffers may hold (see `client::socket_charge`).
    pub sockets: u64,
    /// CPU time of its live processes, where no counter measures the tree.
    pub cpu_time: Option<Duration>,
}

/// What a watch can read of the run it watches. Each call reads now.
pub(crate) trait Probe {
    /// The run's processes' schedstat: read at the wall bound only.
    fn schedstat(&mut self) -> Schedstat;
    /// Its memory now; `None` once there is nothing left to sample (sampling then stops).
    fn sample(&mut self) -> Option<Sample>;
    /// The tree's CPU counter: CPU time used since the run started.
    fn cpu_used(&mut self) -> Option<Duration>;
    /// Whether the program has already ended (its end not yet taken in): at the wall bound,
    /// a run that ended is not over it, whatever the clock says (the loop takes its end in
    /// next). Read at the wall bound only.
    fn ended(&mut self) -> bool {
        false
    }
}

/// The watch over one run.
#[derive(Debug, Clone)]
pub(crate) struct Watch {
    plan: Plan,
    started: Instant,
    deadline: Option<Instant>,
    next_sample: Option<Instant>,
    next_count: Option<Instant>,
    hit: Option<LimitHit>,
    /// The highest memory sample: processes, files and sockets together, in bytes.
    peak: u64,
    /// The most its files were seen to take, in bytes.
    files_peak: u64,
    /// The most its sockets were counted for, in bytes.
    sockets_peak: u64,
    /// The most CPU time the counter or the samples showed.
    cpu_seen: Duration,
}

impl Watch {
    pub(crate) fn new(plan: Plan, started: Instant) -> Watch {
        let mut watch = Watch {
            plan,
            started,
            deadline: plan.wall.and_then(|wall| started.checked_add(wall)),
            next_sample: plan.sampling.map(|s| started + s.first),
            next_count: None,
            hit: None,
            peak: 0,
            files_peak: 0,
            sockets_peak: 0,
            cpu_seen: Duration::ZERO,
        };
        if plan.counter.is_some() {
            watch.plan_count(started);
        }
        watch
    }

    /// Reads what is due at `now`: the limit the run is over, the first time it is found
    /// over one (the caller then kills it). Once a limit is hit nothing more is read.
    pub(crate) fn look(&mut self, now: Instant, probe: &mut impl Probe) -> Option<LimitHit> {
        if self.hit.is_some() {
            return None;
        }
        let mut over = [false; 3];
        let [memory, cpu, wall] = &mut over;
        if let Some(due) = self.deadline.filter(|due| now >= *due) {
            *wall = self.wall_due(due, now, probe);
        }
        if self.next_sample.is_some_and(|due| now >= due) {
            let (memory_over, cpu_over) = self.take_sample(now, probe);
            *memory |= memory_over;
            *cpu |= cpu_over;
        }
        if self.next_count.is_some_and(|due| now >= due) {
            *cpu |= self.count(now, probe);
        }
        let hit = [LimitHit::Memory, LimitHit::CpuTime, LimitHit::WallTime]
            .into_iter()
            .zip(over)
            .find_map(|(limit, over)| over.then_some(limit));
        self.hit = hit;
        hit
    }

    /// When to look again: the earliest reading or bound due, or, once the run was stopped,
    /// [`KILLED_TICK`] from `now`. `None`: nothing is due (the run's end will wake the loop).
    pub(crate) fn wake(&self, now: Instant) -> Option<Instant> {
        if self.hit.is_some() {
            return Some(now + KILLED_TICK);
        }
        [self.deadline, self.next_sample, self.next_count]
            .into_iter()
            .flatten()
            .min()
    }

    /// The run was stopped for something the watch does not see (its output): nothing more
    /// is read, and that is its limit.
    pub(crate) fn stopped(&mut self, why: LimitHit) {
        self.hit.get_or_insert(why);
    }

    /// Bounds the run at `deadline`, which the caller keeps (an interactor's is its pair's).
    pub(crate) fn hold_to(&mut self, deadline: Instant) {
        self.deadline = Some(deadline);
    }

    /// Bounds the run at `deadline`, or not at all for now, as the caller decides (a
    /// communication task's manager, unbounded while one of its users runs).
    pub(crate) fn hold(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The wall bound as pushed back so far.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The limit the run was stopped for.
    pub(crate) fn hit(&self) -> Option<LimitHit> {
        self.hit
    }

    /// The highest memory sample (processes and files), in bytes.
    pub(crate) fn peak(&self) -> u64 {
        self.peak
    }

    /// The most its files in its folder were seen to take, in bytes.
    pub(crate) fn files_peak(&self) -> u64 {
        self.files_peak
    }

    /// The most its sockets were counted for, in bytes.
    pub(crate) fn sockets_peak(&self) -> u64 {
        self.sockets_peak
    }

    /// The most CPU time the counter or the samples showed: a floor for the run's own.
    pub(crate) fn cpu_seen(&self) -> Duration {
        self.cpu_seen
    }

    /// At the wall bound: over it, or pushed back by the time spent waiting for a CPU.
    fn wall_due(&mut self, due: Instant, now: Instant, probe: &mut impl Probe) -> bool {
        let Some(wall) = self.plan.wall.filter(|_| self.plan.push_back) else {
            return true;
        };
        if probe.ended() {
            // Ended before the bound was looked at: its end is taken in next, not a TLE.
            self.deadline = Some(now + KILLED_TICK);
            return false;
        }
        let tree = probe.schedstat();
        let own = now
            .saturating_duration_since(self.started)
            .saturating_sub(tree.run_delay);
        if own >= wall || tree.cpu_time >= self.plan.cpu_limit {
            return true;
        }
        self.deadline = Some(due.max(now) + (wall - own));
        false
    }

    /// Takes the sample due: (over the memory limit, over the CPU bound).
    fn take_sample(&mut self, now: Instant, probe: &mut impl Probe) -> (bool, bool) {
        let Some(sampling) = self.plan.sampling else {
            return (false, false);
        };
        let Some(sample) = probe.sample() else {
            // Gone already, or no /proc: the run's own numbers give the peak afterwards.
            self.next_sample = None;
            return (false, false);
        };
        let memory = sample
            .resident
            .saturating_add(sample.files)
            .saturating_add(sample.sockets);
        self.peak = self.peak.max(memory);
        self.files_peak = self.files_peak.max(sample.files);
        self.sockets_peak = self.sockets_peak.max(sample.sockets);
        let cpu_over = sample.cpu_time.is_some_and(|cpu| {
            self.cpu_seen = self.cpu_seen.max(cpu);
            cpu > self.plan.cpu_stop
        });
        self.next_sample = Some(now + sampling.every);
        (memory > sampling.limit, cpu_over)
    }

    /// Reads the CPU counter due: over the bound.
    fn count(&mut self, now: Instant, probe: &mut impl Probe) -> bool {
        if let Some(used) = probe.cpu_used() {
            self.cpu_seen = self.cpu_seen.max(used);
        }
        if self.cpu_seen > self.plan.cpu_stop {
            return true;
        }
        self.plan_count(now);
        false
    }

    /// The tree cannot use more than every core at once, so the earliest it can reach the
    /// bound is the rest of it spread over the cores.
    fn plan_count(&mut self, now: Instant) {
        let cores = self.plan.counter.unwrap_or(1).max(1);
        let rest = self.plan.cpu_stop.saturating_sub(self.cpu_seen) / cores;
        self.next_count = Some(now + rest.max(COUNTER_STEP));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);
    const MIB: u64 = 1 << 20;

    /// Readings given in order, and what was asked for.
    #[derive(Default)]
    struct Script {
        schedstats: Vec<Schedstat>,
        samples: Vec<Option<Sample>>,
        counts: Vec<Option<Duration>>,
        asked: Vec<&'static str>,
        ended: bool,
    }

    impl Probe for Script {
        fn schedstat(&mut self) -> Schedstat {
            self.asked.push("schedstat");
            self.schedstats.remove(0)
        }
        fn sample(&mut self) -> Option<Sample> {
            self.asked.push("sample");
            self.samples.remove(0)
        }
        fn cpu_used(&mut self) -> Option<Duration> {
            self.asked.push("counter");
            self.counts.remove(0)
        }
        fn ended(&mut self) -> bool {
            self.ended
        }
    }

    /// A sandboxed run's plan: 1 s of CPU, 3 s of wall pushed back, 64 MiB, a counter on 2
    /// cores stopping at 2 s, samples at 2 ms then every 5 ms.
    fn sandboxed() -> Plan {
        Plan {
            wall: Some(3000 * MS),
            push_back: true,
            cpu_limit: 1000 * MS,
            cpu_stop: 2000 * MS,
            sampling: Some(Sampling {
                limit: 64 * MIB,
                first: FIRST_SAMPLE,
                every: SAMPLE_EVERY,
            }),
            counter: Some(2),
        }
    }

    fn delay(run_delay_ms: u32, cpu_ms: u32) -> Schedstat {
        Schedstat {
            cpu_time: cpu_ms * MS,
            run_delay: run_delay_ms * MS,
        }
    }

    fn resident(mib: u64) -> Sample {
        Sample {
            resident: mib * MIB,
            ..Sample::default()
        }
    }

    #[test]
    fn a_run_that_ends_early_reads_nothing() {
        let start = Instant::now();
        let mut watch = Watch::new(sandboxed(), start);
        let mut probe = Script::default();
        // The loop wakes on the program's output and end before anything is due.
        assert_eq!(watch.look(start + MS, &mut probe), None);
        assert_eq!(watch.wake(start + MS), Some(start + FIRST_SAMPLE));
        assert!(probe.asked.is_empty(), "{:?}", probe.asked);
    }

    #[test]
    fn wakes_come_from_the_earliest_due() {
        let start = Instant::now();
        let table = [
            // (plan, the first wake)
            (sandboxed(), start + FIRST_SAMPLE),
            (
                Plan {
                    sampling: None,
                    ..sandboxed()
                },
                // The counter: 2 s over 2 cores.
                start + 1000 * MS,
            ),
            (
                Plan {
                    sampling: None,
                    counter: None,
                    ..sandboxed()
                },
                start + 3000 * MS,
            ),
        ];
        for (plan, wake) in table {
            assert_eq!(Watch::new(plan, start).wake(start), Some(wake), "{plan:?}");
        }
        let none = Plan {
            wall: None,
            sampling: None,
            counter: None,
            ..sandboxed()
        };
        assert_eq!(Watch::new(none, start).wake(start), None);
    }

    #[test]
    fn the_wall_bound_is_pushed_back_by_the_wait_for_a_cpu() {
        let start = Instant::now();
        let plan = Plan {
            sampling: None,
            counter: None,
            ..sandboxed()
        };
        // (schedstat at the bound, at 3 s: over it, or the new bound)
        let table = [
            // Asleep: no wait, little CPU: over.
            (delay(0, 1), None),
            // Waited 1 s for a CPU: 2 s its own, so 1 s more.
            (delay(1000, 500), Some(start + 4000 * MS)),
            // Waited all along: 3 s more.
            (delay(3000, 0), Some(start + 6000 * MS)),
            (delay(5000, 0), Some(start + 6000 * MS)),
            // Its tree used the CPU limit while it waited (a fork bomb): over, however long.
            (delay(2000, 1000), None),
        ];
        for (schedstat, bound) in table {
            let mut watch = Watch::new(plan, start);
            let mut probe = Script {
                schedstats: vec![schedstat],
                ..Script::default()
            };
            let now = start + 3000 * MS;
            let hit = watch.look(now, &mut probe);
            assert_eq!(probe.asked, ["schedstat"]);
            match bound {
                None => {
                    assert_eq!(hit, Some(LimitHit::WallTime), "{schedstat:?}");
                    assert_eq!(watch.wake(now), Some(now + KILLED_TICK));
                }
                Some(bound) => {
                    assert_eq!(hit, None, "{schedstat:?}");
                    assert_eq!(watch.deadline(), Some(bound), "{schedstat:?}");
                    assert_eq!(watch.wake(now), Some(bound));
                }
            }
        }
    }

    #[test]
    fn a_run_that_ended_by_its_wall_bound_is_not_over_it() {
        // A near-zero-CPU program on a busy machine: it ended, but the judge reached the
        // bound before it took the end in. Its end is taken in next; nothing is read.
        let start = Instant::now();
        let mut watch = Watch::new(sandboxed(), start);
        let mut probe = Script {
            ended: true,
            ..Script::default()
        };
        let now = start + 3500 * MS;
        watch.next_sample = None;
        watch.next_count = None;
        assert_eq!(watch.look(now, &mut probe), None);
        assert!(probe.asked.is_empty(), "{:?}", probe.asked);
        assert_eq!(watch.wake(now), Some(now + KILLED_TICK));
    }

    #[test]
    fn a_bound_pushed_back_is_looked_at_again() {
        let start = Instant::now();
        let plan = Plan {
            sampling: None,
            counter: None,
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        let mut probe = Script {
            // Waited 1 s by 3 s; by 4 s it waited no more: over.
            schedstats: vec![delay(1000, 10), delay(1000, 10)],
            ..Script::default()
        };
        assert_eq!(watch.look(start + 3000 * MS, &mut probe), None);
        assert_eq!(watch.look(start + 3500 * MS, &mut probe), None);
        assert_eq!(probe.asked.len(), 1, "read before it was due");
        assert_eq!(
            watch.look(start + 4000 * MS, &mut probe),
            Some(LimitHit::WallTime)
        );
        // Stopped: nothing more is read.
        assert_eq!(watch.look(start + 5000 * MS, &mut probe), None);
        assert_eq!(probe.asked.len(), 2);
        assert_eq!(watch.hit(), Some(LimitHit::WallTime));
    }

    #[test]
    fn without_push_back_the_bound_is_the_bound() {
        let start = Instant::now();
        let plan = Plan {
            push_back: false,
            sampling: None,
            counter: None,
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        let mut probe = Script::default();
        assert_eq!(
            watch.look(start + 3000 * MS, &mut probe),
            Some(LimitHit::WallTime)
        );
        assert!(probe.asked.is_empty());
    }

    #[test]
    fn a_bound_from_outside_is_held_to_as_it_is() {
        let start = Instant::now();
        let plan = Plan {
            wall: None,
            sampling: None,
            counter: None,
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        let mut probe = Script::default();
        watch.hold_to(start + 3000 * MS);
        assert_eq!(watch.look(start + 2999 * MS, &mut probe), None);
        // Moved on by its owner (the pair's bound was pushed back).
        watch.hold_to(start + 4000 * MS);
        assert_eq!(watch.look(start + 3500 * MS, &mut probe), None);
        assert_eq!(
            watch.look(start + 4000 * MS, &mut probe),
            Some(LimitHit::WallTime)
        );
        assert!(probe.asked.is_empty());
    }

    #[test]
    fn memory_samples_decide_mle_and_keep_the_peak() {
        let start = Instant::now();
        let plan = Plan {
            counter: None,
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        let sample = |resident_mib: u64, files_mib: u64, sockets_mib: u64| {
            Some(Sample {
                resident: resident_mib * MIB,
                files: files_mib * MIB,
                sockets: sockets_mib * MIB,
                cpu_time: None,
            })
        };
        let mut probe = Script {
            samples: vec![Some(resident(10)), sample(30, 20, 0), sample(30, 25, 10)],
            ..Script::default()
        };
        assert_eq!(watch.look(start + 2 * MS, &mut probe), None);
        assert_eq!(watch.wake(start + 2 * MS), Some(start + 7 * MS));
        // Late: the next is a period after the look, not after the due time.
        assert_eq!(watch.look(start + 9 * MS, &mut probe), None);
        assert_eq!(watch.wake(start + 9 * MS), Some(start + 14 * MS));
        assert_eq!((watch.peak(), watch.files_peak()), (50 * MIB, 20 * MIB));
        // Its processes, its files and its sockets together over 64 MiB.
        assert_eq!(
            watch.look(start + 14 * MS, &mut probe),
            Some(LimitHit::Memory)
        );
        assert_eq!((watch.peak(), watch.files_peak()), (65 * MIB, 25 * MIB));
        assert_eq!(watch.sockets_peak(), 10 * MIB);
    }

    #[test]
    fn a_sample_of_nothing_stops_sampling() {
        let start = Instant::now();
        let plan = Plan {
            counter: None,
            wall: None,
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        let mut probe = Script {
            samples: vec![None],
            ..Script::default()
        };
        assert_eq!(watch.look(start + 2 * MS, &mut probe), None);
        assert_eq!(watch.wake(start + 2 * MS), None);
    }

    #[test]
    fn the_samples_cpu_time_is_held_to_the_backstop() {
        let start = Instant::now();
        let plan = Plan {
            counter: None,
            ..sandboxed()
        };
        let with_cpu = |ms: u32| {
            Some(Sample {
                resident: MIB,
                cpu_time: Some(ms * MS),
                ..Sample::default()
            })
        };
        let mut watch = Watch::new(plan, start);
        let mut probe = Script {
            samples: vec![with_cpu(1500), with_cpu(2000), with_cpu(2001)],
            ..Script::default()
        };
        assert_eq!(watch.look(start + 2 * MS, &mut probe), None);
        assert_eq!(watch.look(start + 7 * MS, &mut probe), None);
        assert_eq!(
            watch.look(start + 12 * MS, &mut probe),
            Some(LimitHit::CpuTime)
        );
        assert_eq!(watch.cpu_seen(), 2001 * MS);
    }

    #[test]
    fn the_counter_is_read_no_sooner_than_the_cores_could_reach_the_bound() {
        let start = Instant::now();
        let plan = Plan {
            sampling: None,
            wall: Some(60_000 * MS),
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        // (used at the reading, the next reading from it)
        let table = [(1000, 500), (1800, 100), (1990, 5), (2000, 5)];
        let mut now = start + 1000 * MS;
        for (used, next) in table {
            let mut probe = Script {
                counts: vec![Some(used * MS)],
                ..Script::default()
            };
            assert_eq!(watch.wake(now), Some(now), "{used} ms");
            assert_eq!(watch.look(now, &mut probe), None, "{used} ms");
            assert_eq!(probe.asked, ["counter"]);
            assert_eq!(watch.wake(now), Some(now + next * MS), "{used} ms");
            now += next * MS;
        }
        let mut probe = Script {
            counts: vec![Some(2001 * MS)],
            ..Script::default()
        };
        assert_eq!(watch.look(now, &mut probe), Some(LimitHit::CpuTime));
        assert_eq!(watch.cpu_seen(), 2001 * MS);
    }

    #[test]
    fn a_counter_that_cannot_be_read_keeps_its_last_reading() {
        let start = Instant::now();
        let plan = Plan {
            sampling: None,
            ..sandboxed()
        };
        let mut watch = Watch::new(plan, start);
        let mut probe = Script {
            counts: vec![Some(1500 * MS), None],
            ..Script::default()
        };
        assert_eq!(watch.look(start + 1000 * MS, &mut probe), None);
        let next = watch.wake(start + 1000 * MS).unwrap();
        assert_eq!(watch.look(next, &mut probe), None);
        assert_eq!(watch.cpu_seen(), 1500 * MS);
    }

    #[test]
    fn several_limits_at_once_say_memory_then_cpu_then_wall() {
        let start = Instant::now();
        let at = start + 3000 * MS;
        let over_memory = Some(Sample {
            resident: 100 * MIB,
            cpu_time: Some(3000 * MS),
            ..Sample::default()
        });
        let over_cpu = Some(Sample {
            resident: MIB,
            cpu_time: Some(3000 * MS),
            ..Sample::default()
        });
        let table = [
            (over_memory, Some(3000), LimitHit::Memory),
            (over_cpu, Some(3000), LimitHit::CpuTime),
            (Some(resident(1)), Some(3000), LimitHit::CpuTime),
            (Some(resident(1)), Some(10), LimitHit::WallTime),
        ];
        for (sample, counted, expected) in table {
            let mut watch = Watch::new(sandboxed(), start);
            // Everything is due at once: a loop that woke late.
            watch.next_sample = Some(at);
            watch.next_count = Some(at);
            let mut probe = Script {
                schedstats: vec![delay(0, 0)],
                samples: vec![sample],
                counts: vec![counted.map(|ms| ms * MS)],
                asked: Vec::new(),
                ended: false,
            };
            assert_eq!(watch.look(at, &mut probe), Some(expected), "{sample:?}");
            assert_eq!(probe.asked, ["schedstat", "sample", "counter"]);
        }
    }

    #[test]
    fn a_stop_from_outside_ends_the_looking() {
        let start = Instant::now();
        let mut watch = Watch::new(sandboxed(), start);
        watch.stopped(LimitHit::Output);
        let mut probe = Script::default();
        assert_eq!(watch.look(start + 5000 * MS, &mut probe), None);
        assert!(probe.asked.is_empty());
        assert_eq!(watch.hit(), Some(LimitHit::Output));
        assert_eq!(watch.wake(start), Some(start + KILLED_TICK));
        // The first limit stays the one said.
        watch.stopped(LimitHit::Memory);
        assert_eq!(watch.hit(), Some(LimitHit::Output));
    }
}
