// The dev mock (src/dev, /mock.html) still imports the fixtures by their old name.
export * from "./fakeFixtures";
