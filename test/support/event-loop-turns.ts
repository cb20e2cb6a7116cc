/**
 * Counts the event loop's turns (a setImmediate callback that schedules itself) from now until `stop()`: work that
 * yields to the event loop lets it count, work that holds the loop in one piece leaves it at 0 or 1.
 */
export function countEventLoopTurns(): { stop(): number } {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    stop() {
      counting = false;
      return turns;
    },
  };
}
