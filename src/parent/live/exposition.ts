/**
 * Which exposition format a scrape gets, from its Accept header: protobuf when
 * the scraper prefers it (Prometheus asks for it first once native histograms
 * are on), else the text format, which every scraper reads.
 */
import type { LiveState } from './state.js';
import { renderMetrics, TEXT_CONTENT_TYPE } from './openmetrics.js';
import { PROTOBUF_CONTENT_TYPE, renderProtobuf } from './prometheus-protobuf.js';

interface Exposition {
  contentType: string;
  body: Buffer;
}

export function exposition(state: LiveState, accept: string | undefined): Exposition {
  if (prefersProtobuf(accept)) return { contentType: PROTOBUF_CONTENT_TYPE, body: renderProtobuf(state) };
  return { contentType: TEXT_CONTENT_TYPE, body: Buffer.from(renderMetrics(state), 'utf8') };
}

/**
 * True when the header's weight for delimited MetricFamily protobuf is above 0
 * and no lower than the best weight it gives anything else wsbench serves (text,
 * OpenMetrics text, which the 0.0.4 text answers, or a wildcard).
 */
export function prefersProtobuf(accept: string | undefined): boolean {
  let protobuf = 0;
  let text = 0;
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim());
    const param = (name: string): string | undefined =>
      params.find((p) => p.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
    const q = param('q') === undefined ? 1 : Number(param('q'));
    if (!Number.isFinite(q)) continue;
    const media = type.toLowerCase();
    if (media === 'application/vnd.google.protobuf') {
      if (param('proto') === 'io.prometheus.client.MetricFamily' && param('encoding') === 'delimited')
        protobuf = Math.max(protobuf, q);
    } else if (
      media === 'text/plain' ||
      media === 'application/openmetrics-text' ||
      media === '*/*' ||
      media === 'text/*'
    )
      text = Math.max(text, q);
  }
  return protobuf > 0 && protobuf >= text;
}
