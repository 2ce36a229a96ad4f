/// Everything a bench run can be told. Defaults are the workloads of issue 7 (the same as
/// chatbench's for W1-W3); `smoke` shrinks every count so a run takes a few seconds.
struct Configuration {
    /// `messageai-server` to start; default: the one next to this executable.
    var serverPath: String?
    /// Target an already running server (HOST:PORT on 127.0.0.0/8) instead of starting one.
    var server: String?
    /// PID of that server, for its CPU and RSS figures.
    var serverPID: Int32?
    /// Extra flags for a started server. Default lifts the rate limit (100 per minute otherwise)
    /// and the idle timeout (W3's connections must stay idle while the rest connect).
    var serverArguments = ["--rate-limit", "100000000", "--idle-timeout", "3600", "--register-limit", "0"]
    /// Core for a started server (taskset -c); empty: no pinning. Default "0".
    var serverCPU = "0"
    /// Which workloads, in order. Default all five of issue 7, after W0 (ping round trip, the
    /// server's floor for one request, W1's count), then W6 and W7 of issue 15 (flood, slowloris).
    var workloads = ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"]
    /// Seconds each phase of a workload may take (set-up, fill, measure). Default 120.
    var timeLimit = 120.0
    /// Workloads also run over TLS, right after their plaintext run (`--tls-workloads w1,w2,w3`).
    /// Default none: plaintext only, so figures compare with runs from before TLS.
    var tlsWorkloads: [String] = []
    /// Message text size in bytes. Default 64.
    var textBytes = 64

    /// W1: measured messages (10,000) after warm-up ones (200).
    var w1Messages = 10_000
    var w1Warmup = 200
    /// W2: group size (100), senders (5), messages in total (20,000), in flight per sender (10).
    var w2Members = 100
    var w2Senders = 5
    var w2Messages = 20_000
    var w2Window = 10
    /// W3: idle connections (10,000), users whose tokens they resume (4), concurrent logins (64),
    /// seconds idle before RSS is read (2).
    var w3Connections = 10_000
    var w3Users = 4
    var w3Pending = 64
    var w3Settle = 2.0
    /// W4: messages that arrive while the user is offline (10,000); syncs per mode (5).
    var w4Messages = 10_000
    var w4Runs = 5
    /// W5: stored messages (100,000), searches (1,000), distinct words (1,000).
    var w5Messages = 100_000
    var w5Queries = 1_000
    var w5Vocabulary = 1_000

    /// W6: flooding connections per round (0, 4, 8), samples per round (200).
    var w6Flooders = [0, 4, 8]
    var w6Samples = 200
    /// W6: LOGIN frames in the flood too (each costs the server a password hash). Default off.
    var w6Logins = false
    /// W7: slow pre-login connections (1,000), seconds between their bytes (2), and the
    /// server's --frame-timeout when the bench starts it (nil: the server's default, 30 s).
    var w7Connections = 1_000
    var w7Pace = 2.0
    var w7FrameTimeout: Double?

    /// W8 (issue 11): file size in MiB (100) and W1 messages measured alone (2,000); during
    /// the upload, as many as fit in it.
    var w8MiB = 100
    var w8Messages = 2_000

    /// X1 and X2 (issue 26): nodes beside the two busy ones that only read the event log (1).
    var clusterIdleNodes = 1

    /// A few seconds in all: for CI, to keep the tool working, not to measure.
    mutating func applySmoke() {
        timeLimit = min(timeLimit, 60)
        w1Messages = 200; w1Warmup = 20
        w2Members = 5; w2Senders = 2; w2Messages = 200
        w3Connections = 50; w3Users = 2; w3Settle = 0.2
        w4Messages = 300; w4Runs = 1
        w5Messages = 500; w5Queries = 20; w5Vocabulary = 20
        w6Flooders = [0, 2]; w6Samples = 10
        w7Connections = 50; w7Pace = 0.2; w7FrameTimeout = 1
        w8MiB = 4; w8Messages = 50
    }
}
