import { forwardRef, useEffect, useImperativeHandle, useRef, type ReactNode } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomInsideComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only what the panels draw: keeps the screen chunk small (echarts' full build is ~1 MB).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, DataZoomInsideComponent, CanvasRenderer]);

export interface EChartHandle {
  /** PNG data url of the chart drawn on `background` (the export must not be transparent). */
  png(background: string): string | null;
}

interface Props {
  option: Record<string, unknown>;
  className?: string;
}

/** One echarts instance bound to a div: options replaced on change, resized with its box (window, grid, toggles). */
export const EChart = forwardRef<EChartHandle, Props>(function EChart({ option, className }, ref): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const ro = new ResizeObserver(() => instance.resize());
    ro.observe(el);
    const onWindow = () => instance.resize();
    window.addEventListener('resize', onWindow);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', onWindow);
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // notMerge: switching theme or language must not keep stale colours or names from the last option.
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  useImperativeHandle(
    ref,
    () => ({
      png: (background) => chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: background }) ?? null,
    }),
    [],
  );

  return <div ref={box} className={className} />;
});
