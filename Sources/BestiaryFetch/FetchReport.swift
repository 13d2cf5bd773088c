import BestiaryDiagnostics

/// What happened to one job.
public enum FetchOutcome: Hashable, Sendable {
    /// New or changed text (or images) were downloaded and stored.
    case fetched
    /// The cache already had it: not asked (a plain fetch), or the server said 304 / the same revision.
    case unchanged
    /// Nothing stored; the reason names what went wrong.
    case failed(String)
}

/// Progress, as it happens (the command draws a bar or prints lines).
public enum FetchEvent: Sendable {
    case started(total: Int)
    case finished(job: FetchJob, outcome: FetchOutcome, done: Int, total: Int)
    /// A request is being retried after `wait`.
    case retrying(url: String, reason: String, wait: Duration)
}

/// The result of a whole fetch.
public struct FetchReport: Sendable {
    public var fetched = 0
    public var unchanged = 0
    public var failed = 0
    /// HTTP requests made (retries and redirects included).
    public var requests = 0
    /// Response bodies received with status 200 (a 304 has none).
    public var bodies = 0
    /// One error per failed job and record (stage `fetch`), plus warnings and notes.
    public var diagnostics: [Diagnostic] = []
    /// The run was cancelled (Ctrl-C): the articles in flight were left for the next run, and
    /// `notAsked` were never begun.
    public var interrupted = false
    public var notAsked = 0
    /// Why the run stopped before asking for the rest (`notAsked`): asking on could only fail or
    /// be impolite (the disk full, Wikipedia asking to be left alone for minutes).
    public var stopped: String?

    public init() {}

    /// `fetched N, unchanged N, failed N`: the command's last line.
    public var summaryLine: String {
        let counts = "fetched \(fetched), unchanged \(unchanged), failed \(failed)"
        if let stopped, !interrupted {
            return "stopped, \(stopped): \(counts), not done \(notAsked); what was fetched is kept, and `bestiary fetch` goes on from there"
        }
        guard interrupted else { return counts }
        return "interrupted: \(counts), not done \(notAsked); what was fetched is kept, and `bestiary fetch` goes on from there"
    }
}
