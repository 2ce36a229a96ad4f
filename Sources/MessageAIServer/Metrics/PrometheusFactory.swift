import CoreMetrics
import Prometheus

/// swift-metrics → swift-prometheus, with help texts.
///
/// swift-prometheus's own `PrometheusMetricsFactory` registers every metric with an empty help
/// text, and `promtool check metrics` refuses output without `# HELP` lines; the registry needs
/// a metric's help at registration, so this factory looks it up in `ServerMetrics.catalog`.
/// The registry (series, exposition format) is swift-prometheus's: nothing here formats text.
struct PrometheusFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: ServerMetrics.catalog[label]?.help ?? label)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> RecorderHandler {
        // Only gauges are recorded here (aggregating recorders would need value buckets).
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler {
        let buckets = ServerMetrics.catalog[label]?.buckets ?? ServerMetrics.latencyBuckets
        return registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    // A server's metrics live as long as its process: nothing is unregistered.
    func destroyCounter(_ handler: CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: RecorderHandler) {}
    func destroyMeter(_ handler: MeterHandler) {}
    func destroyTimer(_ handler: TimerHandler) {}
}
