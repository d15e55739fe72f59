import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { timeWindow } from './chart-window';

export interface Point {
  /** Seconds since the epoch. */
  time: number;
  value: number;
}

/** A line chart of one numeric value over time, sized to its container. */
export function ValueChart(props: { name: string; points: Point[] }): JSX.Element {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: 200,
        legend: { show: false },
        scales: { x: { time: true, range: (_chart, first, last) => timeWindow(first, last) } },
        series: [
          {},
          { label: props.name, stroke: '#2563eb', width: 2, points: { show: true, size: 6 } },
        ],
        axes: [{ stroke: '#475569' }, { stroke: '#475569' }],
      },
      [props.points.map((point) => point.time), props.points.map((point) => point.value)],
      element,
    );
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: 200 }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [props.name, props.points]);
  const latest = props.points[props.points.length - 1];
  return (
    <figure class="chart">
      <figcaption>
        <strong>{props.name}</strong>{' '}
        <span class="muted">
          {props.points.length} run{props.points.length === 1 ? '' : 's'}, latest {latest.value} (
          {new Date(latest.time * 1000).toLocaleString()})
        </span>
      </figcaption>
      <div ref={container} role="img" aria-label={`${props.name} over time`} />
    </figure>
  );
}
