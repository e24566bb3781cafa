import Testing
@testable import MathSyntax

@Suite struct MathNodeTests {
    /// The height and node count a walk of the tree finds.
    private func walked(_ node: MathNode) -> (height: Int, count: Int) {
        var height = 0, count = 1
        for child in node.children {
            let below = walked(child)
            height = max(height, below.height)
            count += below.count
        }
        return (height + 1, count)
    }

    @Test func heightAndCountOfLeaves() {
        let x = MathNode(.identifier("x", variant: nil))
        #expect(x.treeHeight == 1)
        #expect(x.nodeCount == 1)
        #expect(MathNode(.row, []).treeHeight == 1)
    }

    /// Children held in the node (one to three) and in an array (more), nested.
    @Test(arguments: 1...6)
    func heightAndCountAsWalked(_ width: Int) {
        func leaf(_ i: Int) -> MathNode { MathNode(.number(String(i))) }
        let deep = MathNode(.superscript, [MathNode(.row, [leaf(0), leaf(1)]), MathNode(.squareRoot, [leaf(2)])])
        let row = MathNode(.row, (0..<width).map { $0 == width / 2 ? deep : leaf($0) })
        let root = MathNode(.fraction(FractionProperties()), [row, leaf(9)])
        for node in [deep, row, root] {
            #expect(node.treeHeight == walked(node).height)
            #expect(node.nodeCount == walked(node).count)
        }
        #expect(root.treeHeight == 5)
        #expect(root.nodeCount == 1 + 1 + (width - 1) + 6 + 1)
        #expect(root.strippingRanges().nodeCount == root.nodeCount)
    }
}
