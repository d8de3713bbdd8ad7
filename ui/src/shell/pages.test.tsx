import { act, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { lazyPage } from "./pages";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A page whose code arrives only when the test says so. */
function pageLoadedByHand() {
  let arrive: () => void = () => undefined;
  let loads = 0;
  const page = lazyPage<{ name: string }>(() => {
    loads += 1;
    return new Promise((resolve) => {
      arrive = () => resolve(Greeting);
    });
  });
  return { page, arrive: () => arrive(), loads: () => loads };
}

function Shown({ Component }: { Component: ReturnType<typeof pageLoadedByHand>["page"]["Component"] }) {
  return (
    <Suspense fallback={<p>Loading page</p>}>
      <Component name="Ada" />
    </Suspense>
  );
}

describe("lazy pages", () => {
  it("show the loading state until the page's code has arrived, then the page", async () => {
    const { page, arrive, loads } = pageLoadedByHand();
    render(<Shown Component={page.Component} />);
    expect(screen.getByText("Loading page")).toBeInTheDocument();
    expect(screen.queryByText("Hello Ada")).not.toBeInTheDocument();
    await act(async () => arrive());
    expect(await screen.findByText("Hello Ada")).toBeInTheDocument();
    expect(loads()).toBe(1);
  });

  it("render at once, without a loading state, once preloaded; the code loads once", async () => {
    const { page, arrive, loads } = pageLoadedByHand();
    const first = page.preload();
    const second = page.preload();
    arrive();
    await Promise.all([first, second]);
    render(<Shown Component={page.Component} />);
    expect(screen.getByText("Hello Ada")).toBeInTheDocument();
    expect(screen.queryByText("Loading page")).not.toBeInTheDocument();
    expect(loads()).toBe(1);
  });
});
