// The ends of a turn from one card, for the explorer of mdp report: the twin of
// Rounds.ends in cards.py, one card at a time (the tests hold the two to the same answers).
// C holds the card's rules; a card's key is below 2**22, so bit operators are safe.
(function (C) {
  var n = C.boxes.length, bit = function (i) { return 1 << i; };
  function settled(filled, total, reach) {  // the total kept at 63 once won, 0 once out of reach
    total = total + reach < C.bonusAt ? 0 : Math.min(total, C.bonusAt);
    return filled | (total << n);
  }
  return function (key, ends) {
    var filled = key & (bit(n) - 1), total = (key >> n) & 63, holds50 = (key >> (n + 6)) & 1;
    var open = C.boxes.map(function (box, i) { return (filled & bit(i)) === 0; });
    var reach = 0, lowerOpen = false;
    open.forEach(function (o, i) { if (o) { reach += C.most[i]; lowerOpen = lowerOpen || !C.upper[i]; } });
    var fiveFilled = C.five >= 0 && !open[C.five];
    function ownOpen(face) { return face > 0 && C.own[face] >= 0 && open[C.own[face]]; }
    var next = [], points = [];
    ends.forEach(function (end) {
      var box = C.boxes.indexOf(end[0]), base = end[1], face = end[2];
      var gained = C.upper[box] ? base : 0;
      var fifty = box === C.five && base === 50 && C.extraBonus > 0 ? 1 : 0;
      var following = settled(filled | bit(box), total < C.bonusAt ? total + gained : C.bonusAt,
                              reach - C.most[box]) | ((holds50 | fifty) << (n + 6));
      var won = total < C.bonusAt && total + gained >= C.bonusAt;
      var score = base + (won ? C.upperBonus : 0);
      if (C.joker && C.five >= 0 && face > 0) {
        // A five of a kind is a joker once the five-of-a-kind box is filled, and scores as
        // one in the lower boxes once its own upper box is filled too.
        if (fiveFilled && !ownOpen(face)) score += (C.jokerPoints[end[0]] || base) - base;
        score += holds50 * C.extraBonus;
        if (C.joker === "forced" && fiveFilled) {  // its own box if open, else a lower, else an upper
          var allowed = ownOpen(face) ? box === C.own[face] : lowerOpen ? !C.upper[box] : C.upper[box];
          if (!allowed) following = -1;
        }
      }
      next.push(open[box] ? following : -1);
      points.push(score);
    });
    return {next: next, points: points};
  };
})
