// What every rule set's panel uses to draw: elements from a tag, attributes and children, and
// a health bar. Loaded before the panels (index.html).
'use strict';

window.BattlecoreKit = (() => {
  /// An element: h('button', {class, dataset, onclick, disabled: bool, ...}, children...).
  function h(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (v === true) e.setAttribute(k, '');
      else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  /// An SVG element with attributes and children.
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'dataset') Object.assign(e.dataset, v);
      else if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  /// A bar filled to value / max.
  function bar(value, max) {
    const pct = max > 0 ? Math.max(0, Math.min(100, (100 * value) / max)) : 0;
    return h('div', { class: 'bar' }, h('div', { style: `width:${pct}%` }));
  }

  return { h, svg, bar };
})();
