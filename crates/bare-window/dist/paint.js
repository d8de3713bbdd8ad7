// The first painted frame, reported the way Cubicle's UI reports its own.
requestAnimationFrame(() =>
  requestAnimationFrame(() => window.__TAURI__.core.invoke("painted")),
);
