// RUN: fuse-opt %s --fuse-report=json | FileCheck %s

// The JSON form of the report. Keys print in alphabetical order: a function's
// "eager" and "fused" come before its "name". Counted by hand like
// report.mlir; kernels are numbered across this module. A size (bytes,
// elements) is a number when it is a constant, else its terms (coefficient
// and symbols, highest degree first) and its text (see @mixed_sizes).

// add_relu, every field.
// fused: fused_add_relu_0 reads a,b (8*N), writes c (4*N): 12*N.
// eager: add_0 8*N + 4*N = 12*N; relu_1 4*N + 4*N = 8*N; total 20*N.
// CHECK-LABEL: "functions": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "arguments": [
// CHECK-NEXT:        "tensor<?xf32>",
// CHECK-NEXT:        "tensor<?xf32>"
// CHECK-NEXT:      ],
// CHECK-NEXT:      "eager": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 20,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "20*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 2,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 12,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "12*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 8,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "8*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "add_0",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "add"
// CHECK-NEXT:            ]
// CHECK-NEXT:          },
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 8,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "8*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "relu_1",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "relu"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "fused": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 4,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "4*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 1,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 12,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "12*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 8,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "8*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "fused_add_relu_0",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "add",
// CHECK-NEXT:              "relu"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "name": "add_relu",
// CHECK-NEXT:      "shapes": [
// CHECK-NEXT:        [
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ]
// CHECK-NEXT:      ],
// CHECK-NEXT:      "sizes": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "argument": 0,
// CHECK-NEXT:          "dimension": 0,
// CHECK-NEXT:          "name": "N"
// CHECK-NEXT:        }
// CHECK-NEXT:      ]
// CHECK-NEXT:    },
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Horizontal fusion: one kernel reads a, b, c once (12*N), writes 12*N.
// eager: three kernels of 8*N + 4*N = 12*N each.
// CHECK:           "eager": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 36,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "36*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 24,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "24*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 3,
// CHECK:               "bytes": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 12,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "12*N"
// CHECK-NEXT:               },
// CHECK:               "name": "add_2",
// CHECK:               "bytes": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 12,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "12*N"
// CHECK-NEXT:               },
// CHECK:               "name": "sub_3",
// CHECK:               "bytes": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 12,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "12*N"
// CHECK-NEXT:               },
// CHECK:               "name": "mul_4",
// CHECK:           "fused": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 24,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "24*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 1,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 24,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "24*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 12,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "12*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 12,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "12*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "fused_add_sub_mul_1",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "add",
// CHECK-NEXT:              "sub",
// CHECK-NEXT:              "mul"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "name": "horizontal",
// CHECK-NEXT:      "shapes": [
// CHECK-NEXT:        [
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ]
// CHECK-NEXT:      ],
func.func @horizontal(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.sub %a, %c : tensor<?xf32>
  %2 = fuse.mul %b, %c : tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// A broadcast consumer starts a new kernel. N = v's size (argument 0),
// M = x's rows (argument 1).
// fused: exp reads 4*N writes 4*N (8*N); mul+relu reads 4*N*M + 4*N, writes
//        4*N*M (8*N*M + 4*N). Read 4*N*M + 8*N, written 4*N*M + 4*N.
// eager: exp 8*N, mul 8*N*M + 4*N, relu 8*N*M: 16*N*M + 12*N.
// CHECK:           "eager": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 16,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N",
// CHECK-NEXT:                "M"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "16*N*M + 12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N",
// CHECK-NEXT:                "M"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N*M + 8*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N",
// CHECK-NEXT:                "M"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 4,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N*M + 4*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 3,
// CHECK:               "bytes": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 8,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "8*N"
// CHECK-NEXT:               },
// CHECK:               "name": "exp_5",
// CHECK:               "bytes": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 8,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N",
// CHECK-NEXT:                       "M"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   },
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 4,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "8*N*M + 4*N"
// CHECK-NEXT:               },
// CHECK:               "elements": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 1,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N",
// CHECK-NEXT:                       "M"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "N*M"
// CHECK-NEXT:               },
// CHECK:               "name": "mul_6",
// CHECK:               "bytes": {
// CHECK-NEXT:                 "terms": [
// CHECK-NEXT:                   {
// CHECK-NEXT:                     "coefficient": 8,
// CHECK-NEXT:                     "symbols": [
// CHECK-NEXT:                       "N",
// CHECK-NEXT:                       "M"
// CHECK-NEXT:                     ]
// CHECK-NEXT:                   }
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "text": "8*N*M"
// CHECK-NEXT:               },
// CHECK:               "name": "relu_7",
// CHECK:           "fused": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N",
// CHECK-NEXT:                "M"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 12,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N*M + 12*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 4,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N",
// CHECK-NEXT:                "M"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "4*N*M + 8*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 4,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N",
// CHECK-NEXT:                "M"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 4,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "4*N*M + 4*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 2,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 8,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "8*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "exp_2",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "exp"
// CHECK-NEXT:            ]
// CHECK-NEXT:          },
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 8,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N",
// CHECK-NEXT:                    "M"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                },
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "8*N*M + 4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N",
// CHECK-NEXT:                    "M"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                },
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N*M + 4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N",
// CHECK-NEXT:                    "M"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N*M"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N",
// CHECK-NEXT:                    "M"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N*M"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "fused_mul_relu_3",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "mul",
// CHECK-NEXT:              "relu"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "name": "broadcast_boundary",
// CHECK-NEXT:      "shapes": [
// CHECK-NEXT:        [
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          "M",
// CHECK-NEXT:          "N"
// CHECK-NEXT:        ]
// CHECK-NEXT:      ],
// CHECK-NEXT:      "sizes": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "argument": 0,
// CHECK-NEXT:          "dimension": 0,
// CHECK-NEXT:          "name": "N"
// CHECK-NEXT:        },
// CHECK-NEXT:        {
// CHECK-NEXT:          "argument": 1,
// CHECK-NEXT:          "dimension": 0,
// CHECK-NEXT:          "name": "M"
// CHECK-NEXT:        }
// CHECK-NEXT:      ]
func.func @broadcast_boundary(%v: tensor<?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.exp %v : tensor<?xf32>
  %1 = fuse.mul %x, %0 : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.relu %1 : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// i1 is one byte. fused: reads a,b (8*N), writes the select result (4*N) and
// the mask (N). eager: cmp reads 8*N writes N (9*N); select reads N + 8*N
// writes 4*N (13*N).
// CHECK:           "eager": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 22,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "22*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 17,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "17*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 5,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "5*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 2,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 9,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "9*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 8,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "8*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "cmp_8",
// CHECK:                 "bytes": {
// CHECK-NEXT:                   "terms": [
// CHECK-NEXT:                     {
// CHECK-NEXT:                       "coefficient": 13,
// CHECK-NEXT:                       "symbols": [
// CHECK-NEXT:                         "N"
// CHECK-NEXT:                       ]
// CHECK-NEXT:                     }
// CHECK-NEXT:                   ],
// CHECK-NEXT:                   "text": "13*N"
// CHECK-NEXT:                 },
// CHECK-NEXT:            "bytes_read": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 9,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "9*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "bytes_written": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 4,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "4*N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "elements": {
// CHECK-NEXT:              "terms": [
// CHECK-NEXT:                {
// CHECK-NEXT:                  "coefficient": 1,
// CHECK-NEXT:                  "symbols": [
// CHECK-NEXT:                    "N"
// CHECK-NEXT:                  ]
// CHECK-NEXT:                }
// CHECK-NEXT:              ],
// CHECK-NEXT:              "text": "N"
// CHECK-NEXT:            },
// CHECK-NEXT:            "name": "select_9",
// CHECK:           "fused": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 13,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "13*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_read": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "bytes_written": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 5,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "5*N"
// CHECK-NEXT:        },
// CHECK-NEXT:        "copies": [],
// CHECK-NEXT:        "kernel_count": 1,
// CHECK:                 "name": "fused_cmp_select_4",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "cmp",
// CHECK-NEXT:              "select"
// CHECK-NEXT:            ]
// CHECK:           "name": "cmp_select",
func.func @cmp_select(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %m = fuse.cmp gt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %0 = fuse.select %m, %a, %b : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0, %m : tensor<?xf32>, tensor<?xi1>
}

// Static and dynamic shapes in one function: the static kernel's sizes are
// numbers, the totals a symbolic term and a constant one.
// CHECK:            "fused": {
// CHECK-NEXT:        "bytes": {
// CHECK-NEXT:          "terms": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 8,
// CHECK-NEXT:              "symbols": [
// CHECK-NEXT:                "N"
// CHECK-NEXT:              ]
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "coefficient": 32,
// CHECK-NEXT:              "symbols": []
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "text": "8*N + 32"
// CHECK-NEXT:        },
// CHECK:               "name": "relu_{{[0-9]+}}",
// CHECK:             {
// CHECK-NEXT:            "bytes": 32,
// CHECK-NEXT:            "bytes_read": 16,
// CHECK-NEXT:            "bytes_written": 16,
// CHECK-NEXT:            "elements": 4,
// CHECK-NEXT:            "name": "relu_{{[0-9]+}}",
// CHECK:             "name": "mixed_sizes",
func.func @mixed_sizes(%x: tensor<?xf32>, %s: tensor<4xf32>) -> (tensor<?xf32>, tensor<4xf32>) {
  %0 = fuse.relu %x : tensor<?xf32>
  %1 = fuse.relu %s : tensor<4xf32>
  return %0, %1 : tensor<?xf32>, tensor<4xf32>
}
