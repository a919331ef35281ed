import { describe, expect, it } from "vitest";
import {
  celsiusToFahrenheit,
  metresPerSecondToMilesPerHour,
  millimetresToInches,
  UNITS,
} from "../../server/weather/units.ts";

describe("canonical units", () => {
  it("are the spec's meta.canonicalUnits", () => {
    expect(UNITS).toEqual({ temperature: "celsius", windSpeed: "m/s", pressure: "hPa", precipitation: "mm" });
  });
});

describe("celsiusToFahrenheit", () => {
  it.each([
    [0, 32],
    [100, 212],
    [-40, -40],
    [23, 73.4],
    [25.4, 77.7],
    [-5.8, 21.6], // 21.56
    [37, 98.6],
  ])("%s °C is %s °F, to one decimal", (celsius, fahrenheit) => {
    expect(celsiusToFahrenheit(celsius)).toBe(fahrenheit);
  });

  it("rounds an exact half away from zero, below zero too", () => {
    expect(celsiusToFahrenheit(1.25)).toBe(34.3); // 34.25
    expect(celsiusToFahrenheit(-40.25)).toBe(-40.5); // -40.45; Math.round would give -40.4
  });
});

describe("metresPerSecondToMilesPerHour", () => {
  it.each([
    [0, 0],
    [1, 2.2],
    [3.1, 6.9],
    [10, 22.4],
    [44.704, 100],
  ])("%s m/s is %s mph, to one decimal", (metresPerSecond, milesPerHour) => {
    expect(metresPerSecondToMilesPerHour(metresPerSecond)).toBe(milesPerHour);
  });
});

describe("millimetresToInches", () => {
  it.each([
    [0, 0],
    [25.4, 1],
    [2.7, 0.106],
    [12.7, 0.5],
  ])("%s mm is %s in, to three decimals", (millimetres, inches) => {
    expect(millimetresToInches(millimetres)).toBe(inches);
  });

  it("keeps MET's smallest amount, 0.1 mm, from becoming zero", () => {
    expect(millimetresToInches(0.1)).toBe(0.004);
  });
});
