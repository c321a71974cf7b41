// The phase graph, drawn as SVG from a rule set's transition table (GET /api/rules/R/graph).
// Layout: the phases stacked in table order, terminal phases last; an edge going down is an arc
// on the right, an edge going up an arc on the left. A (trigger, to) pair that leaves three or
// more phases (the deckbuilder's Victory and Defeat edges) is drawn faint, unlabelled, and named
// once in the legend, so the table stays readable. A label that would overlap one placed before
// it moves down a line, and the picture widens to hold every label.
'use strict';

const BattlecoreGraph = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const NODE_W = 150, NODE_H = 28, GAP = 44, TOP = 20;
  const LABEL_CHAR_W = 7, LABEL_LINE = 12;  // edge labels are 10px text (at most 7px a character)

  /// Places labels so that no two overlap: each box [x1, x2] x [y - LINE/2, y + LINE/2] moves
  /// down a line while it meets a box placed before it. Returns the y to draw at.
  function labelPlacer() {
    const boxes = [];
    return {
      boxes,
      place(x, y, anchorStart, text) {
        const w = text.length * LABEL_CHAR_W;
        const x1 = anchorStart ? x : x - w, x2 = x1 + w;
        const hits = (yy) => boxes.some((b) => x1 < b.x2 && b.x1 < x2 && Math.abs(b.y - yy) < LABEL_LINE);
        let yy = y;
        for (let guard = 0; hits(yy) && guard < 30; ++guard) yy += LABEL_LINE;
        boxes.push({ x1, x2, y: yy });
        return yy;
      },
    };
  }

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function render(container, graph) {
    const terminal = new Set(graph.terminal);
    const order = graph.phases.filter((p) => !terminal.has(p)).concat(graph.phases.filter((p) => terminal.has(p)));
    const row = new Map(order.map((p, i) => [p, i]));
    const common = new Map();
    for (const e of graph.edges) {
      const key = e.trigger + '\u2192' + e.to;
      common.set(key, (common.get(key) || 0) + 1);
    }
    const isCommon = (e) => common.get(e.trigger + '\u2192' + e.to) >= 3;
    const commonKeys = [...common.entries()].filter(([, n]) => n >= 3);

    const width = 470, cx = width / 2;
    const height = TOP + order.length * GAP + 16 + commonKeys.length * 14;
    const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${graph.rules} phase graph` });
    const defs = el('defs');
    for (const [id, color] of [['arrow', '#8d8d93'], ['arrow-faint', '#d0ced0'], ['arrow-last', '#2f6fde']]) {
      const m = el('marker', { id: `${graph.rules}-${id}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
      m.appendChild(el('path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
      defs.appendChild(m);
    }
    svg.appendChild(defs);
    const y = (p) => TOP + row.get(p) * GAP + NODE_H / 2;
    const edges = new Map();
    const edgeLayer = el('g');
    const labels = labelPlacer();
    let minX = 0, maxX = width;
    // Offsets per side grow with the span so arcs nest instead of crossing.
    graph.edges.forEach((e, i) => {
      const faint = isCommon(e);
      const down = row.get(e.to) > row.get(e.from);
      const span = Math.abs(row.get(e.to) - row.get(e.from));
      const side = down ? 1 : -1;
      const x0 = cx + side * NODE_W / 2;
      const d = faint ? 150 + span * 4 : 18 + span * 22;
      minX = Math.min(minX, x0 + side * d * 0.75 - 4);
      maxX = Math.max(maxX, x0 + side * d * 0.75 + 4);
      const y0 = y(e.from) + (down ? 5 : -5), y1 = y(e.to) + (down ? -5 : 5);
      const g = el('g', { class: 'edge' + (faint ? ' common' : ''), 'data-from': e.from, 'data-trigger': e.trigger, 'data-to': e.to });
      g.appendChild(el('path', {
        d: `M${x0},${y0} C${x0 + side * d},${y0} ${x0 + side * d},${y1} ${x0},${y1}`,
        'marker-end': `url(#${graph.rules}-${faint ? 'arrow-faint' : 'arrow'})`,
      }));
      if (!faint) {
        const lx = x0 + side * d * 0.75 + (down ? 3 : -3);
        const ly = labels.place(lx, (y0 + y1) / 2, down, e.trigger);
        g.appendChild(el('text', { x: lx, y: ly, 'text-anchor': down ? 'start' : 'end', 'dominant-baseline': 'middle' }, e.trigger));
      }
      edgeLayer.appendChild(g);
      edges.set(`${e.from}|${e.trigger}|${e.to}`, g);
      void i;
    });
    svg.appendChild(edgeLayer);
    const nodes = new Map();
    for (const p of order) {
      const g = el('g', { class: 'node' + (terminal.has(p) ? ' terminal' : '') + (p === graph.initial ? ' initial' : ''), 'data-phase': p });
      g.appendChild(el('rect', { x: cx - NODE_W / 2, y: y(p) - NODE_H / 2, width: NODE_W, height: NODE_H, rx: 6 }));
      g.appendChild(el('text', { x: cx, y: y(p) }, p));
      svg.appendChild(g);
      nodes.set(p, g);
    }
    commonKeys.forEach(([key, n], i) => {
      svg.appendChild(el('text', { class: 'legend', x: 8, y: TOP + order.length * GAP + 6 + i * 14 },
        `faint: ${key} (from ${n} phases)`));
    });
    for (const b of labels.boxes) {
      minX = Math.min(minX, b.x1 - 4);
      maxX = Math.max(maxX, b.x2 + 4);
    }
    const labelBottom = Math.max(0, ...labels.boxes.map((b) => b.y + LABEL_LINE));
    const fullHeight = Math.max(height, labelBottom);
    svg.setAttribute('viewBox', `${Math.floor(minX)} 0 ${Math.ceil(maxX - minX)} ${fullHeight}`);
    container.replaceChildren(svg);

    return {
      rules: graph.rules,
      /// Highlights the current phase and the last transition taken (or none).
      update(phase, last) {
        for (const [p, g] of nodes) g.classList.toggle('current', p === phase);
        const lastKey = last ? `${last.from}|${last.trigger}|${last.to}` : '';
        for (const [k, g] of edges) {
          const on = k === lastKey;
          g.classList.toggle('last', on);
          const path = g.querySelector('path');
          const faint = g.classList.contains('common');
          path.setAttribute('marker-end', `url(#${graph.rules}-${on ? 'arrow-last' : faint ? 'arrow-faint' : 'arrow'})`);
        }
      },
    };
  }

  return { render };
})();
