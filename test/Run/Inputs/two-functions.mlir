func.func @f1(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = fuse.relu %a : tensor<?xf32>
  return %b : tensor<?xf32>
}
func.func @f2(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = fuse.relu %a : tensor<?xf32>
  %c = fuse.neg %b : tensor<?xf32>
  return %c : tensor<?xf32>
}
