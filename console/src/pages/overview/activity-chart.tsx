import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { COUNT_NAMES, type Activity } from '../../api/types';
import { count } from '../../components/format';

/** Distinct on white and dark backgrounds, and told apart by the legend's labels too. */
const COLORS: Record<(typeof COUNT_NAMES)[number], string> = {
  accepted: '#1c63b8',
  duplicates: '#8a6d00',
  processed: '#1a7f37',
  failed: '#c2410c',
  dead: '#b91c1c',
};

function chartData(activity: Activity): uPlot.AlignedData {
  const xs = activity.buckets.map((b) => Date.parse(b.start) / 1000);
  return [xs, ...COUNT_NAMES.map((name) => activity.buckets.map((b) => b[name]))];
}

/** Events per bucket over the range (uPlot: small, fast, no network). */
export function ActivityChart({ activity }: { activity: Activity }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = box.current!;
    const width = () => Math.max(280, element.clientWidth);
    plot.current = new uPlot(
      {
        width: width(),
        height: 260,
        series: [{}, ...COUNT_NAMES.map((name) => ({ label: name, stroke: COLORS[name], width: 2, points: { show: false } }))],
        axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor', size: 56 }],
        scales: { x: { time: true } },
      },
      chartData(activity),
      element,
    );
    const observer = new ResizeObserver(() => plot.current?.setSize({ width: width(), height: 260 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);

  useEffect(() => plot.current?.setData(chartData(activity)), [activity]);

  const summary = COUNT_NAMES.map((name) => `${count(activity.totals[name])} ${name}`).join(', ');
  return (
    <figure class="chart">
      <div ref={box} role="img" aria-label={`Events per ${activity.bucketSeconds / 60}-minute bucket from ${activity.from} to ${activity.to}: ${summary}`} />
      <figcaption class="muted">
        {activity.buckets.length} buckets of {activity.bucketSeconds / 60} min; totals: {summary}.
      </figcaption>
    </figure>
  );
}
