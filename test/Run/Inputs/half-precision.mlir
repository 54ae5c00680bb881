// Every way the cpu target rounds to f16 and bf16: casts from f32, f64 and
// each other, and arithmetic, comparison and math ops computed in f32 and
// rounded after each op (docs/accuracy.md, "The numerics contract").
func.func @halves(%x: tensor<?xf32>, %d: tensor<?xf64>, %h: tensor<?xf16>,
                  %b: tensor<?xbf16>)
    -> (tensor<?xbf16>, tensor<?xbf16>, tensor<?xbf16>, tensor<?xf16>,
        tensor<?xf16>, tensor<?xbf16>) {
  %xb = fuse.cast %x : tensor<?xf32> to tensor<?xbf16>
  %db = fuse.cast %d : tensor<?xf64> to tensor<?xbf16>
  %hb = fuse.cast %h : tensor<?xf16> to tensor<?xbf16>
  %bh = fuse.cast %b : tensor<?xbf16> to tensor<?xf16>
  %xh = fuse.cast %x : tensor<?xf32> to tensor<?xf16>
  %h1 = fuse.mul %h, %xh : tensor<?xf16>
  %h2 = fuse.add %h1, %bh : tensor<?xf16>
  %h3 = fuse.div %h2, %h : tensor<?xf16>
  %h4 = fuse.sqrt %h3 : tensor<?xf16>
  %h5 = fuse.max %h4, %h1 : tensor<?xf16>
  %h6 = fuse.tanh %h5 : tensor<?xf16>
  %b1 = fuse.mul %b, %xb : tensor<?xbf16>
  %b2 = fuse.sub %b1, %db : tensor<?xbf16>
  %b3 = fuse.div %b2, %b : tensor<?xbf16>
  %b4 = fuse.exp %b3 : tensor<?xbf16>
  %b5 = fuse.min %b4, %hb : tensor<?xbf16>
  return %xb, %db, %hb, %bh, %h6, %b5
      : tensor<?xbf16>, tensor<?xbf16>, tensor<?xbf16>, tensor<?xf16>,
        tensor<?xf16>, tensor<?xbf16>
}
