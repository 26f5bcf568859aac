"use client";

import { Cell, Pie, PieChart, ResponsiveContainer } from "recharts";

/** The gauge's half-ring: `share` of it in `colour`, the rest grey. */
export function AttainmentRing({ share, colour }: { share: number; colour: string }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <PieChart>
        <Pie
          data={[{ v: share }, { v: 1 - share }]}
          dataKey="v"
          startAngle={180}
          endAngle={0}
          cx="50%"
          cy="90%"
          innerRadius="120%"
          outerRadius="160%"
          stroke="none"
          isAnimationActive={false}
        >
          <Cell fill={colour} />
          <Cell fill="#e2e8f0" />
        </Pie>
      </PieChart>
    </ResponsiveContainer>
  );
}
