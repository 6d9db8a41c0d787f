import Testing

@testable import Carlos

@Suite("AccessOrderList")
struct AccessOrderListTests {
  func order(_ list: AccessOrderList, _ nodes: ContiguousArray<AccessOrderNode>) -> [Int] {
    var result: [Int] = []
    var index = list.head
    while index >= 0 {
      result.append(index)
      index = nodes[index].next
    }
    return result
  }

  @Test("appends, removes and moves entries in O(1), keeping the cost")
  func operations() {
    var nodes = ContiguousArray(
      (0..<4).map { AccessOrderNode(cost: $0 + 1, hash: UInt64($0), region: .window) })
    var list = AccessOrderList()
    for index in 0..<4 { list.append(index, &nodes) }
    #expect(order(list, nodes) == [0, 1, 2, 3])
    #expect(list.cost == 10)
    #expect(list.count == 4)
    list.moveToBack(1, &nodes)
    #expect(order(list, nodes) == [0, 2, 3, 1])
    list.moveToBack(1, &nodes)
    #expect(order(list, nodes) == [0, 2, 3, 1])
    list.remove(0, &nodes)
    list.remove(1, &nodes)
    #expect(order(list, nodes) == [2, 3])
    #expect(list.head == 2 && list.tail == 3)
    #expect(list.cost == 7)
    list.remove(2, &nodes)
    list.remove(3, &nodes)
    #expect(list.head == -1 && list.tail == -1 && list.cost == 0 && list.count == 0)
  }

  @Test("in a node store, moves the head, a middle entry and the tail, links both ways")
  func movesInStore() {
    var nodes = NodeStore()
    for index in 0..<4 {
      let slot = nodes.append()
      nodes[slot] = AccessOrderNode(cost: index + 1, hash: UInt64(index), region: .window)
    }
    var list = AccessOrderList()
    for index in 0..<4 { list.append(index, nodes) }
    func walk(from start: Int, _ step: (AccessOrderNode) -> Int) -> [Int] {
      var result: [Int] = []
      var index = start
      while index >= 0 {
        result.append(index)
        index = step(nodes[index])
      }
      return result
    }
    for (moved, expected) in [
      (0, [1, 2, 3, 0]), (2, [1, 3, 0, 2]), (2, [1, 3, 0, 2]), (3, [1, 0, 2, 3]),
    ] {
      list.moveToBack(moved, nodes)
      #expect(walk(from: list.head, \.next) == expected)
      #expect(walk(from: list.tail, \.previous) == expected.reversed())
      #expect(list.head == expected.first && list.tail == expected.last)
    }
    #expect(list.cost == 10 && list.count == 4)
  }
}
