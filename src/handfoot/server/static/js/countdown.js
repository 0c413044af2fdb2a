// The seat hold's countdown: "away: a bot plays in N s", redrawn every second.  The server
// sends the seconds left when it sends the table message (and whether they are counting: only
// while the gone person's seat is to act), so the page counts down from when that message
// arrived, with its own clock: no clock needs to agree with the server's.

let received = 0; // performance.now() when the last table message came
let timer = null;

export function noteTable() {
  received = performance.now();
  if (!timer) timer = setInterval(tick, 1000);
}

// Seconds since the last table message came (a turn-based table's times count on from it).
export function sinceTable() {
  return received ? (performance.now() - received) / 1000 : 0;
}

// Seconds left on a seat's hold now, or null when it is not counting.
export function holdLeft(seat) {
  if (!seat || seat.hold === null || seat.hold === undefined || !seat.hold_counting) return null;
  return Math.max(0, seat.hold - (performance.now() - received) / 1000);
}

export function holdText(seat) {
  const left = holdLeft(seat);
  if (left === null) return "away";
  return left > 0 ? `away: a bot plays in ${Math.ceil(left)} s` : "away: a bot plays now";
}

let seatsOf = () => [];
let paceText = null;

// Where the seats' facts come from (the page's table message), for the redraw; ``pace``: the
// turn-based table's turn line, redrawn too.
export function watchSeats(get, pace = null) {
  seatsOf = get;
  paceText = pace;
}

function tick() {
  const seats = seatsOf() || [];
  for (const el of document.querySelectorAll("[data-hold-seat]")) {
    const seat = seats[Number(el.dataset.holdSeat)];
    const text = holdText(seat);
    if (el.textContent !== text) el.textContent = text;
  }
  if (!paceText) return;
  for (const line of document.querySelectorAll("[data-pace-turn]")) {
    const text = paceText(line.dataset.paceTurn === "short");
    if (line.textContent !== text) line.textContent = text;
  }
}
