/*
 * OpenTelemetry traces. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test passes an
 * exporter): then every kit choke point does nothing but test one boolean. On, a thread has one
 * tracer provider exporting over OTLP/HTTP, AsyncLocalStorage carries the active span, and W3C
 * `traceparent` travels in gRPC metadata (kit's unary and wrapService), so one request is one
 * trace: the gateway's HTTP span, each gRPC call (client and server side) and every SQL statement.
 *
 * The spans are made here by hand, not by the http/express/grpc/pg auto-instrumentations: those
 * patch modules through require hooks, which an ESM process run by tsx does not pass through
 * without a loader hook in every entry point, and kit already owns the one place each of these
 * calls goes through (the HTTP pipeline start, `unary`, `wrapService`, `Db.query`).
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import type { BasicTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Metadata } from '@grpc/grpc-js';

export { SpanKind };

// The SDK (provider, exporter, propagator) is imported only when tracing is turned on: loading it
// costs a process start about a second on a busy machine, which an untraced process should not pay.
let provider: BasicTracerProvider | undefined;

/** Whether spans are being recorded in this thread (checked before any tracing work). */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/**
 * Starts tracing for this thread when OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads it,
 * and OTEL_EXPORTER_OTLP_HEADERS…, itself), or with `exporter` (tests: an in-memory one, spans
 * handed over as they end). OTEL_SERVICE_NAME overrides `serviceName`. Idempotent.
 */
export async function initTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env, exporter?: SpanExporter): Promise<boolean> {
  if (provider) return true;
  if (!exporter && !env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const [{ AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { OTLPTraceExporter }, { resourceFromAttributes }, { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor }] =
    await Promise.all([
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-base'),
    ]);
  if (provider) return true;
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return true;
}

/** Flushes and stops this thread's tracing (at shutdown; tests). */
export async function shutdownTracing(): Promise<void> {
  const p = provider;
  if (!p) return;
  provider = undefined;
  await p.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

const tracer = () => trace.getTracer('quire');

/**
 * Runs `fn` inside a new span (child of the active one, or of `parent`), ending it when `fn`
 * settles and marking it failed when `fn` throws. Without tracing, just runs `fn`.
 */
export function withSpan<T>(name: string, opts: { kind?: SpanKind; attributes?: Attributes; parent?: Context }, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!provider) return fn(undefined);
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (e) {
      span.recordException(e instanceof Error ? e : String(e));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw e;
    } finally {
      span.end();
    }
  });
}

/** Starts a span that the caller ends (an HTTP request ends on 'finish'); runs `fn` with it active. */
export function startSpan<T>(name: string, opts: { kind?: SpanKind; attributes?: Attributes; parent?: Context }, fn: (span: Span | undefined) => T): T {
  if (!provider) return fn(undefined);
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  return context.with(trace.setSpan(parent, span), () => fn(span));
}

export function markSpanError(span: Span | undefined, message?: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
}

const metadataSetter: TextMapSetter<Metadata> = { set: (m, k, v) => m.set(k, v) };
const metadataGetter: TextMapGetter<Metadata> = {
  keys: (m) => Object.keys(m.getMap()),
  get: (m, k) => {
    const v = m.get(k)[0];
    return typeof v === 'string' ? v : undefined;
  },
};

/** Adds the active span's `traceparent` (and `tracestate`) to outgoing gRPC metadata. */
export function injectTraceContext(metadata: Metadata): void {
  if (provider) propagation.inject(context.active(), metadata, metadataSetter);
}

/** The caller's trace context from incoming gRPC metadata; only the metadata counts, not this thread's active span. */
export function extractTraceContext(metadata: Metadata | undefined): Context {
  return provider && metadata ? propagation.extract(ROOT_CONTEXT, metadata, metadataGetter) : ROOT_CONTEXT;
}

/** The caller's trace context from incoming HTTP headers (a proxy or mesh that started the trace). */
export function extractHttpTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  if (!provider) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers, {
    keys: (h) => Object.keys(h),
    get: (h, k) => {
      const v = h[k];
      return Array.isArray(v) ? v[0] : v;
    },
  });
}
